package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash testing on a file system that keeps only what was synced (Pebble's crashable MemFS): after
 * any crash the store must reopen holding exactly the state after some prefix of the writes, a prefix
 * that includes every write acknowledged as SYNC. Crashes land anywhere, including in the middle of
 * flushes and compactions, and some keep a torn unsynced tail.
 */
class CrashRecoveryTest {
    private static final Path DIR = Path.of("/db");
    private static final int KEY_SPACE = 3000;

    /** One logical write: a batch of puts/deletes. */
    private record Op(List<byte[]> keys, List<byte[]> values) {}

    @ParameterizedTest(name = "{0}/{1}/{2}")
    @MethodSource("io.bellows.engine.EngineConfigs#all")
    void syncedWritesSurviveCrashes(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout) {
        long seed = TestSeeds.seed("CrashRecoveryTest[" + style + "/" + policy + "]");
        Random rnd = new Random(seed);
        EngineOptions options = EngineConfigs.small(style, policy, layout).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        TreeMap<byte[], byte[]> durable = new TreeMap<>(Bytes.COMPARATOR);
        List<Op> sinceSync = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            EngineImpl db = EngineImpl.open(DIR, options, fs);
            int writes = 200 + rnd.nextInt(1500);
            for (int i = 0; i < writes; i++) {
                Op op = randomOp(rnd);
                WriteBatch b = new WriteBatch();
                for (int j = 0; j < op.keys().size(); j++) {
                    if (op.values().get(j) == null) {
                        b.delete(op.keys().get(j));
                    } else {
                        b.put(op.keys().get(j), op.values().get(j));
                    }
                }
                boolean sync = rnd.nextInt(20) == 0;
                db.write(b, sync ? WriteOptions.sync() : WriteOptions.async());
                sinceSync.add(op);
                if (sync) {
                    for (Op o : sinceSync) {
                        apply(durable, o);
                    }
                    sinceSync.clear();
                }
                if (rnd.nextInt(500) == 0) {
                    db.flush();
                }
            }
            CrashableFileSystem crashed = rnd.nextBoolean() ? fs.crash() : fs.crash(rnd.nextLong());
            db.close();
            fs = crashed;
            EngineImpl reopened = EngineImpl.open(DIR, options, fs);
            TreeMap<byte[], byte[]> actual = contents(reopened, style);
            int prefix = matchingPrefix(durable, sinceSync, actual);
            if (prefix < 0) {
                fail("seed=" + seed + " round=" + round + ": recovered state is not the state after any prefix of the "
                        + "writes that includes every SYNC write (" + actual.size() + " keys recovered, "
                        + durable.size() + " durable)");
            }
            // The recovered state is now the truth: the unsynced suffix beyond the prefix is gone.
            for (int i = 0; i < prefix; i++) {
                apply(durable, sinceSync.get(i));
            }
            sinceSync.clear();
            for (Map.Entry<byte[], byte[]> e : durable.entrySet()) {
                assertArrayEquals(e.getValue(), reopened.get(e.getKey()), "seed=" + seed + " get after crash");
            }
            reopened.close();
        }
    }

    /** The length of the prefix of {@code pending} that turns {@code base} into {@code actual}, or -1. */
    private static int matchingPrefix(TreeMap<byte[], byte[]> base, List<Op> pending, TreeMap<byte[], byte[]> actual) {
        TreeMap<byte[], byte[]> state = new TreeMap<>(base);
        for (int i = 0; ; i++) {
            if (equal(state, actual)) {
                return i;
            }
            if (i == pending.size()) {
                return -1;
            }
            apply(state, pending.get(i));
        }
    }

    private static boolean equal(TreeMap<byte[], byte[]> a, TreeMap<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<Map.Entry<byte[], byte[]>> ia = a.entrySet().iterator();
        Iterator<Map.Entry<byte[], byte[]>> ib = b.entrySet().iterator();
        while (ia.hasNext()) {
            Map.Entry<byte[], byte[]> x = ia.next();
            Map.Entry<byte[], byte[]> y = ib.next();
            if (Bytes.compare(x.getKey(), y.getKey()) != 0 || Bytes.compare(x.getValue(), y.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }

    private static void apply(TreeMap<byte[], byte[]> m, Op op) {
        for (int j = 0; j < op.keys().size(); j++) {
            if (op.values().get(j) == null) {
                m.remove(op.keys().get(j));
            } else {
                m.put(op.keys().get(j), op.values().get(j));
            }
        }
    }

    private static TreeMap<byte[], byte[]> contents(EngineImpl db, CompactionStyle style) {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Bytes.COMPARATOR);
        if (style == CompactionStyle.LSM_TRIE) {
            // No cursors on LSM_TRIE (no key order on disk): get every key of the key space instead.
            for (int k = 0; k < KEY_SPACE; k++) {
                byte[] key = key(k);
                byte[] v = db.get(key);
                if (v != null) {
                    out.put(key, v);
                }
            }
            return out;
        }
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                out.put(c.key(), c.value());
            }
        }
        return out;
    }

    private static byte[] key(int k) {
        return String.format("key%05d", k).getBytes();
    }

    private static Op randomOp(Random rnd) {
        int n = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(8) : 1;
        List<byte[]> keys = new ArrayList<>(n);
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(key(rnd.nextInt(KEY_SPACE)));
            if (rnd.nextInt(6) == 0) {
                values.add(null);
            } else {
                byte[] v = new byte[rnd.nextInt(120)];
                rnd.nextBytes(v);
                values.add(v);
            }
        }
        return new Op(keys, values);
    }
}
