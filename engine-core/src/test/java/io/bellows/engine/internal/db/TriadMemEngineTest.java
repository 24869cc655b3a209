package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TRIAD-MEM through the engine, under every in-memory policy: a hot set stays in memory across flushes
 * (no table ever holds a hot key), is logged again at each flush so that a crash right after the flush
 * (the old log deleted) loses none of it, snapshots still read what they read; and the update counts
 * the flush plan sees are the same whichever policy counted them. In the first layout of the run
 * ({@code bellows.test.layouts}; engine-offheap reruns it under OFF_HEAP).
 */
class TriadMemEngineTest {
    private static final Path DIR = Path.of("/db");
    private static final int HOT = 10;

    private static EngineOptions options(InMemoryCompaction policy) {
        return EngineConfigs.small(CompactionStyle.TRIAD, policy, EngineConfigs.layouts().get(0))
                .compaction(TriadOptions.builder().hotFraction(0.05).disk(false).log(false).build()).build();
    }

    private static byte[] hot(int i) {
        return String.format("hot%03d", i).getBytes();
    }

    private static byte[] cold(int round, int i) {
        return String.format("cold%02d-%04d", round, i).getBytes();
    }

    private static byte[] value(String tag) {
        return (tag + "-" + "v".repeat(60)).getBytes();
    }

    private static void settle(EngineImpl db) throws InterruptedException {
        while (!EngineProbe.settled(db)) {
            Thread.sleep(2);
        }
    }

    /** Every user key of every table of the current version. */
    private static Set<String> keysOnDisk(EngineImpl db) throws IOException {
        Set<String> out = new HashSet<>();
        Version v = db.versions().acquireCurrent();
        try {
            for (int level = 0; level < v.numLevels(); level++) {
                for (FileMeta f : v.files(level)) {
                    try (InternalIterator it = db.tables().iterator(f, false)) {
                        for (it.seekToFirst(); it.isValid(); it.next()) {
                            out.add(new String(it.key()));
                        }
                    }
                }
            }
        } finally {
            v.release();
        }
        return out;
    }

    private static long logFiles(CrashableFileSystem fs) throws IOException {
        return fs.list(DIR).stream().filter(n -> n.endsWith(".log")).count();
    }

    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void hotSetStaysInMemoryAndSurvivesACrashRightAfterTheFlush(InMemoryCompaction policy) throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(policy), fs);
        Map<String, byte[]> latest = new TreeMap<>();
        Snapshot early = null;
        byte[] earlyHot0 = null;
        try {
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 200; i++) {
                    db.put(cold(round, i), value("c" + round));
                    latest.put(new String(cold(round, i)), value("c" + round));
                    if (i % 4 == 0) {
                        int h = (i / 4) % HOT;
                        byte[] v = value("h" + round + "-" + i);
                        db.put(hot(h), v);
                        latest.put(new String(hot(h)), v);
                    }
                }
                if (round == 1) {
                    early = db.snapshot();
                    earlyHot0 = latest.get(new String(hot(0)));
                }
                db.flush();
                settle(db);
                Set<String> disk = keysOnDisk(db);
                for (int h = 0; h < HOT; h++) {
                    assertFalse(disk.contains(new String(hot(h))), policy + " round " + round + ": hot key " + h
                            + " was flushed");
                }
                assertTrue(disk.contains(new String(cold(round, 7))), "cold keys are flushed");
            }
            assertArrayEquals(earlyHot0, db.get(hot(0), ReadOptions.at(early)),
                    "a snapshot reads the carried version it read before");
            Map<String, Double> f = db.stats().scheme();
            assertTrue(f.get("mem.hot.keys") >= HOT * 4, f.toString());
            // The sweep deletes the logs the flushes released: only the new log, holding the hot set, is left.
            for (int i = 0; i < 2000 && logFiles(fs) > 1; i++) {
                Thread.sleep(5);
            }
            assertEquals(1, logFiles(fs), fs.list(DIR).toString());
        } finally {
            if (early != null) {
                early.close();
            }
        }
        CrashableFileSystem crashed = fs.crash();
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options(policy), crashed);
        try {
            for (Map.Entry<String, byte[]> e : latest.entrySet()) {
                assertArrayEquals(e.getValue(), reopened.get(e.getKey().getBytes()), policy + ": " + e.getKey()
                        + " after a crash right after the flush");
            }
        } finally {
            reopened.close();
        }
    }

    /**
     * A snapshot keeps two versions of a hot key, so both are carried and logged again, before the writes
     * that follow. Recovery replays them with a MemStore so small that the 70 KiB newer version fills it:
     * were the newer logged first (bellows-stress, TRIAD, cycle 887), it would be flushed alone, and the
     * older one would share the next L0 table with the later writes, whose highest sequence puts that
     * table first in a get's probe order: the older value would come back.
     */
    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void carriedVersionsReplayOldestFirstSoRecoveryFlushesNeverHideTheNewest(InMemoryCompaction policy)
            throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions roomy = options(policy).toBuilder().memstoreSize(4 << 20).build();
        EngineImpl db = EngineImpl.open(DIR, roomy, fs);
        byte[] older = new byte[1 << 10];
        Arrays.fill(older, (byte) 'o');
        byte[] newer = new byte[70 << 10];
        Arrays.fill(newer, (byte) 'n');
        for (int i = 0; i < 100; i++) {
            db.put(cold(0, i), value("c"));
        }
        db.put(hot(0), older);
        Snapshot pinned = db.snapshot();
        for (int i = 0; i < 6; i++) {
            db.put(hot(0), i == 5 ? newer : value("h" + i));
        }
        db.flush();
        settle(db);
        assertFalse(keysOnDisk(db).contains(new String(hot(0))), "the hot key is carried, not flushed");
        assertArrayEquals(older, db.get(hot(0), ReadOptions.at(pinned)));
        // Writes after the carry follow the carried records in the new log, with newer sequences.
        for (int i = 0; i < 100; i++) {
            db.put(cold(1, i), value("c1"), WriteOptions.sync());
        }
        CrashableFileSystem crashed = fs.crash();
        pinned.close();
        db.close();
        // The smallest MemStore: recovery flushes right after the 70 KiB record.
        EngineImpl reopened = EngineImpl.open(DIR, options(policy).toBuilder().memstoreSize(64 << 10).build(), crashed);
        try {
            assertArrayEquals(newer, reopened.get(hot(0)), policy + ": the newest carried version after recovery");
        } finally {
            reopened.close();
        }
    }

    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void aSnapshotHoldingUnloggedWritesCarriesNothing(InMemoryCompaction policy) throws Exception {
        EngineImpl db = EngineImpl.open(DIR, options(policy), new CrashableFileSystem());
        try {
            for (int i = 0; i < 200; i++) {
                db.put(cold(0, i), value("c"));
                db.write(new WriteBatch().put(hot(i % HOT), value("h" + i)), WriteOptions.noWal());
            }
            db.flush();
            settle(db);
            Set<String> disk = keysOnDisk(db);
            assertTrue(disk.contains(new String(hot(0))), "hot keys written unlogged are flushed, not carried");
            assertEquals(1.0, db.stats().scheme().get("mem.abandoned"), db.stats().scheme().toString());
        } finally {
            db.close();
        }
    }

    /** Records what the plan is offered. */
    private static final class Recording implements FlushPlan {
        final TreeMap<String, Integer> updates = new TreeMap<>();

        @Override
        public void offer(byte[] key, int n, long bytes) {
            updates.put(new String(key), n);
        }

        @Override
        public boolean carries(byte[] key) {
            return false;
        }
    }

    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void updateCountsAreTheSameWhicheverPolicyCounted(InMemoryCompaction policy) throws Exception {
        EngineOptions o = EngineConfigs.small(CompactionStyle.TRIAD, policy, EngineConfigs.layouts().get(0))
                .memstoreSize(8 << 20)
                .activeSegmentFraction(0.005).compaction(TriadOptions.defaults()).build();
        EngineImpl db = EngineImpl.open(DIR, o, new CrashableFileSystem());
        try {
            TreeMap<String, Integer> expected = new TreeMap<>();
            for (int i = 0; i < 6000; i++) {
                int k = i % 7 == 0 ? i % 13 : 100 + i;
                byte[] key = String.format("k%05d", k).getBytes();
                db.put(key, value("x" + i));
                expected.merge(new String(key), 1, Integer::sum);
            }
            settle(db);
            Thread.sleep(50);
            settle(db);
            Recording r = new Recording();
            try (MemStoreView v = db.memstore().view()) {
                List<Segment> segs = new ArrayList<>(v.segments());
                CarryOver.offerKeys(segs, new long[0], db.memstore().droppedVersions(segs), new LongHashSet(), r);
            }
            List<String> wrong = new ArrayList<>();
            for (Map.Entry<String, Integer> e : expected.entrySet()) {
                if (!e.getValue().equals(r.updates.get(e.getKey())) && wrong.size() < 5) {
                    wrong.add(e.getKey() + ": " + r.updates.get(e.getKey()) + " counted, " + e.getValue() + " written");
                }
            }
            assertEquals(List.of(), wrong, policy + ": " + db.stats().memstore());
            assertEquals(expected.keySet(), r.updates.keySet());
            if (policy == InMemoryCompaction.EAGER) {
                assertTrue(db.stats().memstore().inMemoryBytesEliminated() > 0, "EAGER compacted, so the counts came through drops");
            }
        } finally {
            db.close();
        }
    }
}
