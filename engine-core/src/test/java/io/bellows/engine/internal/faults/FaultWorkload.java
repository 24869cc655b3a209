package io.bellows.engine.internal.faults;

import io.bellows.engine.Durability;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fixed workload every fault run repeats: on {@link FaultPoints#options small options} it goes
 * through automatic and explicit flushes (each rolling the WAL), automatic compactions and a
 * compactRange, SYNC and ASYNC batches with puts and deletes, reads, a clean close with writes still in
 * the WAL, an open that recovers them (replay, a recovered table, a new manifest, the sweep at open),
 * more writes and compactions, a scan where the scheme has cursors, a machine crash that tears the
 * WAL's unsynced tail and an open that recovers from it, more writes and a final close. Everything is
 * a function of the batch number, so every run makes the same calls.
 */
final class FaultWorkload {
    static final int KEYS = 400;
    private static final int BATCH = 16;
    private static final long CRASH_SEED = 21;

    private FaultWorkload() {}

    static void run(FaultDriver d) {
        d.open();
        for (int b = 0; b < 24; b++) {
            d.write(batch(b, b * BATCH, 1), durability(b));
        }
        d.get(key(3));
        d.flush();
        for (int b = 24; b < 40; b++) {
            d.write(batch(b, b * 7, 7), durability(b));
        }
        d.write(deletes(5, 9, 30), Durability.SYNC);
        d.compactRange();
        d.get(key(5));
        d.get(key(14));
        for (int b = 41; b < 50; b++) {
            d.write(batch(b, b * 11, 3), durability(b));
        }
        d.write(deletes(2, 13, 10), Durability.ASYNC);
        // The clean close leaves the last batches in the WAL only: the open replays them.
        d.reopen();
        d.get(key(2));
        d.get(key(98));
        for (int b = 51; b < 80; b++) {
            d.write(batch(b, b * 5, 13), durability(b));
        }
        d.scan();
        // Writes only in the WAL, the last ones ASYNC, then a machine crash that tears unsynced tails.
        for (int b = 80; b < 86; b++) {
            d.write(batch(b, b * 17, 3), durability(b + 1));
        }
        d.crashAndReopen(CRASH_SEED);
        d.get(key(3));
        d.get(key(51));
        for (int b = 86; b < 94; b++) {
            d.write(batch(b, b * 19, 5), durability(b));
        }
        d.flush();
        d.get(key(7));
        d.close();
    }

    static String key(int i) {
        return String.format("k%04d", i % KEYS);
    }

    /** Values differ per batch and key, and vary in length so tables and blocks are cut unevenly. */
    static String value(int batch, int key) {
        String head = "b" + batch + "-" + key(key) + "-";
        return head + "v".repeat(40 + (key * 37 + batch * 11) % 180);
    }

    private static Durability durability(int batch) {
        return batch % 3 == 0 ? Durability.SYNC : Durability.ASYNC;
    }

    private static List<Map.Entry<String, String>> batch(int b, int first, int stride) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (int j = 0; j < BATCH; j++) {
            int k = first + j * stride;
            // Every fourth batch deletes its last key instead of writing it.
            String value = b % 4 == 1 && j == BATCH - 1 ? null : value(b, k);
            out.add(new SimpleEntry<>(key(k), value));
        }
        return out;
    }

    private static List<Map.Entry<String, String>> deletes(int first, int stride, int n) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            out.add(new SimpleEntry<>(key(first + j * stride), null));
        }
        return out;
    }
}
