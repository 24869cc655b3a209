package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WalRecoveryMode;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * One flipped bit anywhere in a WAL (every byte of its last two records, a stride through the rest): under
 * POINT_IN_TIME the store opens holding exactly the first {@code recordsReplayed} writes, never a wrong
 * value or a write without the ones before it; under ABSOLUTE_CONSISTENCY the open fails naming the WAL, or
 * the flip was harmless and every write is there.
 */
class WalCorruptionSweepTest {
    private static final Path DIR = Path.of("/db");

    /** One write: a put, or a delete when {@code value} is null. */
    private record Op(String key, byte[] value) {}

    @Test
    void everyFlipRecoversAnExactPrefixOrFailsNamingTheWal() throws IOException {
        long seed = TestSeeds.seed("WalCorruptionSweepTest");
        Random rnd = new Random(seed);
        EngineOptions pit = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.BASIC)
                .memstoreSize(4 << 20).build();
        EngineOptions absolute = pit.toBuilder().walRecoveryMode(WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        List<Op> ops = new ArrayList<>();
        EngineImpl db = EngineImpl.open(DIR, pit, fs);
        for (int i = 0; i < 300; i++) {
            String k = "key" + rnd.nextInt(60);
            if (rnd.nextInt(4) == 0) {
                db.delete(k.getBytes(), WriteOptions.sync());
                ops.add(new Op(k, null));
            } else {
                byte[] v = new byte[rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 80)];
                rnd.nextBytes(v);
                db.put(k.getBytes(), v, WriteOptions.sync());
                ops.add(new Op(k, v));
            }
        }
        db.close();
        Path wal = null;
        for (String name : fs.list(DIR)) {
            if (FileNames.number(name, FileNames.LOG_SUFFIX) >= 0 && fs.size(DIR.resolve(name)) > FileHeader.LENGTH) {
                wal = DIR.resolve(name);
            }
        }
        byte[] good = fs.readAll(wal);
        Map<String, byte[]> pristine = new TreeMap<>();
        for (String name : fs.list(DIR)) {
            pristine.put(name, fs.readAll(DIR.resolve(name)));
        }
        LogReader r = new LogReader(good, wal, FileHeader.KIND_WAL);
        List<Long> offsets = new ArrayList<>();
        while (r.next() != null) {
            offsets.add(r.lastRecordOffset());
        }
        assertEquals(ops.size(), offsets.size(), "one WAL record per write");
        int everyByteFrom = offsets.get(offsets.size() - 2).intValue();
        int flips = 0;
        for (int at = 0; at < good.length; at += at >= everyByteFrom ? 1 : 1 + rnd.nextInt(23)) {
            byte[] damaged = good.clone();
            damaged[at] ^= (byte) (1 << rnd.nextInt(8));
            String where = "flip at " + at + " of " + good.length + ", seed " + seed;
            restore(fs, pristine, wal, damaged);
            try {
                EngineImpl a = EngineImpl.open(DIR, absolute, fs);
                try {
                    assertHolds(a, model(ops, ops.size()), where + " (ABSOLUTE_CONSISTENCY opened)");
                } finally {
                    a.close();
                }
            } catch (CorruptionException e) {
                assertEquals(wal, e.file(), where);
            }
            restore(fs, pristine, wal, damaged);
            EngineImpl p = EngineImpl.open(DIR, pit, fs);
            try {
                EngineStats.Recovery rec = p.stats().recovery();
                assertTrue(rec.recordsReplayed() == ops.size() || rec.corruptRegions() > 0, where + ": " + rec);
                assertHolds(p, model(ops, (int) rec.recordsReplayed()), where + ": " + rec);
            } finally {
                p.close();
            }
            flips++;
        }
        assertTrue(flips > offsets.size(), flips + " flips");
    }

    private static Map<String, byte[]> model(List<Op> ops, int n) {
        TreeMap<String, byte[]> m = new TreeMap<>();
        for (Op op : ops.subList(0, n)) {
            if (op.value() == null) {
                m.remove(op.key());
            } else {
                m.put(op.key(), op.value());
            }
        }
        return m;
    }

    private static void assertHolds(EngineImpl db, Map<String, byte[]> model, String where) {
        TreeMap<String, byte[]> seen = new TreeMap<>();
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                seen.put(new String(c.key()), c.value());
            }
        }
        assertEquals(model.keySet(), seen.keySet(), where);
        for (Map.Entry<String, byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), seen.get(e.getKey()), where + ": " + e.getKey());
            assertArrayEquals(e.getValue(), db.get(e.getKey().getBytes()), where + ": get " + e.getKey());
        }
    }

    /** Puts the store back as it was after the writes, with {@code walBytes} as the WAL's contents. */
    private static void restore(CrashableFileSystem fs, Map<String, byte[]> pristine, Path wal, byte[] walBytes)
            throws IOException {
        for (String name : fs.list(DIR)) {
            fs.delete(DIR.resolve(name));
        }
        for (Map.Entry<String, byte[]> e : pristine.entrySet()) {
            Path path = DIR.resolve(e.getKey());
            fs.overwrite(path, path.equals(wal) ? walBytes : e.getValue());
        }
    }
}
