package io.bellows.engine.metamorphic;

import io.bellows.engine.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates a seeded op log (Pebble's metamorphic generator, in small): mostly writes over a small key
 * space so keys are overwritten and deleted across flushes and compactions, reads at the latest state
 * and at snapshots, and now and then a flush, a range compaction, a reopen, a crash check or a crash the
 * run continues from.
 */
final class OpGenerator {
    static final int KEYS = 300;
    private final Random rnd;
    private final List<Integer> liveSnapshots = new ArrayList<>();
    private int nextSnapshot;
    private int values;

    OpGenerator(long seed) {
        rnd = new Random(seed);
    }

    List<Op> generate(int n) {
        List<Op> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ops.add(next());
        }
        return ops;
    }

    private Op next() {
        int r = rnd.nextInt(1000);
        if (r < 420) {
            return new Op.Put(key(), value(), durability());
        }
        if (r < 500) {
            return new Op.Put(key(), null, durability());
        }
        if (r < 570) {
            List<Op.Put> writes = new ArrayList<>();
            Durability d = durability();
            for (int i = 1 + rnd.nextInt(6); i > 0; i--) {
                writes.add(new Op.Put(key(), rnd.nextInt(4) == 0 ? null : value(), d));
            }
            return new Op.Batch(writes, d);
        }
        if (r < 780) {
            return new Op.Get(key(), snapshotOrLatest());
        }
        if (r < 850) {
            String from = rnd.nextInt(5) == 0 ? "*" : key();
            String to = rnd.nextInt(5) == 0 ? "*" : key();
            return new Op.Scan(from, to, 1 + rnd.nextInt(30), snapshotOrLatest(), rnd.nextInt(3) == 0);
        }
        if (r < 880) {
            liveSnapshots.add(nextSnapshot);
            return new Op.TakeSnapshot(nextSnapshot++);
        }
        if (r < 905 && !liveSnapshots.isEmpty()) {
            return new Op.ReleaseSnapshot(liveSnapshots.remove(rnd.nextInt(liveSnapshots.size())));
        }
        if (r < 935) {
            return new Op.Flush();
        }
        if (r < 950) {
            String a = key();
            String b = key();
            boolean all = rnd.nextInt(3) == 0;
            return new Op.CompactRange(all ? "*" : min(a, b), all ? "*" : max(a, b));
        }
        if (r < 962) {
            liveSnapshots.clear();
            return new Op.Reopen();
        }
        if (r < 985) {
            return new Op.CrashCheck(rnd.nextLong());
        }
        if (r < 995) {
            liveSnapshots.clear();
            return new Op.CrashRestart();
        }
        return new Op.Get(key(), -1);
    }

    private String key() {
        // A skewed key space: some keys are hot, most are written a few times.
        int k = rnd.nextInt(4) == 0 ? rnd.nextInt(20) : rnd.nextInt(KEYS);
        return String.format("k%04d", k);
    }

    private String value() {
        int n = values++;
        int len = rnd.nextInt(20) == 0 ? 1000 + rnd.nextInt(4000) : rnd.nextInt(120);
        return "v" + n + "." + String.valueOf((char) ('a' + n % 26)).repeat(len);
    }

    private Durability durability() {
        int r = rnd.nextInt(20);
        return r < 3 ? Durability.SYNC : r < 15 ? Durability.ASYNC : Durability.NONE;
    }

    private int snapshotOrLatest() {
        return liveSnapshots.isEmpty() || rnd.nextInt(3) > 0 ? -1 : liveSnapshots.get(rnd.nextInt(liveSnapshots.size()));
    }

    private static String min(String a, String b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String max(String a, String b) {
        return a.compareTo(b) <= 0 ? b : a;
    }
}
