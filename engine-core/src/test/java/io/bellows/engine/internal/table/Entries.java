package io.bellows.engine.internal.table;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/** The reference model of table tests: a sorted list of internal entries, and random generators. */
final class Entries {
    static final Path PATH = Path.of("/mem/000042.sst");
    static final Comparator<Entry> ORDER = (a, b) -> InternalKeys.compare(a.key, a.seq, b.key, b.seq);

    record Entry(byte[] key, long seq, int kind, byte[] value) {
        @Override
        public String toString() {
            return Bytes.toHex(key) + "@" + seq + (kind == InternalKeys.KIND_PUT ? "=" + Bytes.toHex(value) : " DEL");
        }
    }

    private Entries() {}

    /**
     * About {@code n} entries in internal order: short keys over a small alphabet (so prefixes are
     * shared), the empty key, a few long keys, several versions of many keys, deletions, and one hot
     * key with {@code hotVersions} versions whose values are large enough to straddle blocks.
     */
    static List<Entry> random(Random rnd, int n, int hotVersions) {
        List<Entry> out = new ArrayList<>();
        TreeSet<Entry> seen = new TreeSet<>(ORDER);
        addVersions(rnd, out, seen, Bytes.EMPTY, 1 + rnd.nextInt(3));
        for (int i = 0; i < 3; i++) {
            byte[] longKey = new byte[200 + rnd.nextInt(3000)];
            rnd.nextBytes(longKey);
            addVersions(rnd, out, seen, longKey, 1 + rnd.nextInt(2));
        }
        byte[] hot = "hot-key".getBytes();
        for (int v = 0; v < hotVersions; v++) {
            byte[] value = new byte[40 + rnd.nextInt(80)];
            rnd.nextBytes(value);
            add(out, seen, new Entry(hot, 1 + rnd.nextInt(1_000_000), InternalKeys.KIND_PUT, value));
        }
        while (out.size() < n) {
            byte[] key = new byte[1 + rnd.nextInt(12)];
            for (int j = 0; j < key.length; j++) {
                key[j] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : 'a' + rnd.nextInt(4));
            }
            addVersions(rnd, out, seen, key, rnd.nextInt(5) == 0 ? 2 + rnd.nextInt(4) : 1);
        }
        Collections.sort(out, ORDER);
        return out;
    }

    private static void addVersions(Random rnd, List<Entry> out, Set<Entry> seen, byte[] key, int versions) {
        for (int v = 0; v < versions; v++) {
            long seq = rnd.nextInt(4) == 0 ? rnd.nextInt(5) : 1 + (rnd.nextLong() & InternalKeys.MAX_SEQUENCE);
            if (rnd.nextInt(6) == 0) {
                add(out, seen, new Entry(key, seq, InternalKeys.KIND_DELETE, Bytes.EMPTY));
            } else {
                byte[] value = new byte[rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextInt(8) == 0 ? 600 : 30)];
                rnd.nextBytes(value);
                add(out, seen, new Entry(key, seq, InternalKeys.KIND_PUT, value));
            }
        }
    }

    private static void add(List<Entry> out, Set<Entry> seen, Entry e) {
        if (seen.add(e)) {
            out.add(e);
        }
    }

    /** The model's answer to get(key, seq): the first entry at or after (key, seq) if it has this key. */
    static Entry get(List<Entry> sorted, byte[] key, long seq) {
        int i = ceiling(sorted, key, seq);
        if (i < sorted.size() && Bytes.compare(sorted.get(i).key, key) == 0) {
            return sorted.get(i);
        }
        return null;
    }

    /** Index of the first entry at or after (key, seq). */
    static int ceiling(List<Entry> sorted, byte[] key, long seq) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Entry e = sorted.get(mid);
            if (InternalKeys.compare(e.key, e.seq, key, seq) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the last entry at or before (key, seq); -1 if none. */
    static int floor(List<Entry> sorted, byte[] key, long seq) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Entry e = sorted.get(mid);
            if (InternalKeys.compare(e.key, e.seq, key, seq) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    static byte[] buildTable(List<Entry> sorted, int blockSize, int restartInterval, int bloomBits) throws IOException {
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder builder = new TableBuilder(file, PATH, blockSize, restartInterval, bloomBits);
        for (Entry e : sorted) {
            builder.add(e.key, e.seq, e.kind, e.kind == InternalKeys.KIND_PUT ? e.value : null);
        }
        builder.finish();
        return file.bytes();
    }

    /** A probe key: mostly keys of the model, sometimes near or absent ones. */
    static byte[] probeKey(Random rnd, List<Entry> sorted) {
        byte[] k = sorted.get(rnd.nextInt(sorted.size())).key;
        switch (rnd.nextInt(6)) {
            case 0 -> {
                byte[] x = Arrays.copyOf(k, k.length + 1);
                x[k.length] = (byte) rnd.nextInt(256);
                return x;
            }
            case 1 -> {
                return k.length == 0 ? k : Arrays.copyOf(k, k.length - 1);
            }
            case 2 -> {
                byte[] x = new byte[rnd.nextInt(6)];
                rnd.nextBytes(x);
                return x;
            }
            default -> {
                return k;
            }
        }
    }

    /** A probe sequence: extremes, the neighbourhood of entry sequences, or anything. */
    static long probeSeq(Random rnd, List<Entry> sorted) {
        return switch (rnd.nextInt(5)) {
            case 0 -> InternalKeys.MAX_SEQUENCE;
            case 1 -> 0;
            case 2 -> Math.max(0, Math.min(InternalKeys.MAX_SEQUENCE,
                    sorted.get(rnd.nextInt(sorted.size())).seq + rnd.nextInt(3) - 1));
            default -> rnd.nextLong() & InternalKeys.MAX_SEQUENCE;
        };
    }
}
