package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteBufferManager;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TRIAD with TRIAD-MEM carrying hot keys, killed while its flushes, compactions and other writers run: an
 * image of the files as a SIGKILL leaves them ({@link CrashableFileSystem#processCrash()}: every byte
 * written, synced or not) must reopen holding every write the imaging thread was acknowledged (ASYNC),
 * under every in-memory policy, with TRIAD-LOG on and off. The in-process counterpart of bellows-stress's
 * TRIAD cycles (docs/stress.md), which once reported a lost ASYNC write on TRIAD that no replay repeated.
 */
class TriadProcessCrashTest {
    private static final Path DIR = Path.of("/db");
    private static final int OPS_PER_WRITER = 2_000;

    /**
     * Three writers with group commit and a shared MemStore budget: each takes images while the others
     * keep writing, and checks its own keys on them exactly (none of its writes is in flight then).
     */
    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void concurrentWritersKeepEveryAcknowledgedWrite(InMemoryCompaction policy) throws Exception {
        for (MemoryLayout layout : EngineConfigs.layouts()) {
            for (boolean log : new boolean[] {false, true}) {
                String name = "TriadProcessCrashTest.concurrent[" + policy + "/" + layout + "/log=" + log + "]";
                long seed = TestSeeds.seed(name);
                EngineOptions.Builder b = EngineConfigs.small(CompactionStyle.TRIAD, policy, layout)
                        .compaction(TriadOptions.builder().hotFraction(0.1).flushThreshold(0).log(log).build())
                        .memstoreSize(256 << 10).activeSegmentFraction(0.01);
                // Images open outside the live engine's MemStore budget, so they do not change its flushes.
                EngineOptions imageOptions = b.build();
                EngineOptions options = b.writeBufferManager(WriteBufferManager.create(300 << 10)).build();
                CrashableFileSystem fs = new CrashableFileSystem();
                EngineImpl db = EngineImpl.open(DIR, options, fs);
                List<Thread> threads = new ArrayList<>();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                for (int t = 0; t < 3; t++) {
                    int thread = t;
                    Thread th = new Thread(() -> {
                        try {
                            writer(name, seed, thread, db, fs, imageOptions);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    threads.add(th);
                    th.start();
                }
                try {
                    for (Thread th : threads) {
                        th.join();
                    }
                    if (failure.get() != null) {
                        throw new AssertionError(name + " seed=" + seed, failure.get());
                    }
                } finally {
                    db.close();
                }
            }
        }
    }

    private static void writer(String name, long seed, int thread, EngineImpl db, CrashableFileSystem fs,
            EngineOptions imageOptions) throws Exception {
        Random rnd = new Random(seed + thread);
        String p = "t" + thread + "-";
        Map<String, byte[]> model = new HashMap<>();
        ArrayDeque<Snapshot> snaps = new ArrayDeque<>();
        try {
            for (int i = 0; i < OPS_PER_WRITER; i++) {
                int r = rnd.nextInt(100);
                if (r < 40) {
                    byte[] k = (p + new String(key(rnd))).getBytes();
                    byte[] v = rnd.nextInt(30) == 0 ? new byte[20_000 + rnd.nextInt(40_000)] : value(rnd, i);
                    v[0] = (byte) i;
                    db.put(k, v, WriteOptions.async());
                    model.put(new String(k), v);
                } else if (r < 55) {
                    byte[] k = (p + new String(key(rnd))).getBytes();
                    db.delete(k, WriteOptions.async());
                    model.remove(new String(k));
                } else if (r < 95) {
                    WriteBatch b = new WriteBatch();
                    int g = rnd.nextInt(40);
                    boolean del = rnd.nextInt(4) == 0;
                    for (int m = 0; m < 5; m++) {
                        byte[] k = (p + "g" + g + "-" + m).getBytes();
                        if (del) {
                            b.delete(k);
                            model.remove(new String(k));
                        } else {
                            byte[] v = value(rnd, i);
                            b.put(k, v);
                            model.put(new String(k), v);
                        }
                    }
                    db.write(b, WriteOptions.async());
                } else if (r < 98) {
                    snaps.add(db.snapshot());
                    if (snaps.size() > 2) {
                        snaps.poll().close();
                    }
                } else if (rnd.nextInt(3) == 0) {
                    EngineImpl img = EngineImpl.open(DIR, imageOptions, fs.processCrash());
                    try {
                        for (int g = 0; g < 40; g++) {
                            for (int m = 0; m < 5; m++) {
                                String k = p + "g" + g + "-" + m;
                                assertArrayEquals(model.get(k), img.get(k.getBytes()), name + " op " + i + " " + k);
                            }
                        }
                        for (int j = 0; j < 400; j++) {
                            String k = p + "k" + j;
                            assertArrayEquals(model.get(k), img.get(k.getBytes()), name + " op " + i + " " + k);
                        }
                    } finally {
                        img.close();
                    }
                }
            }
        } finally {
            for (Snapshot s : snaps) {
                s.close();
            }
        }
    }

    private static byte[] key(Random rnd) {
        // A tenth of the keys take half the writes: TRIAD-MEM's hot set.
        int i = rnd.nextBoolean() ? rnd.nextInt(40) : rnd.nextInt(400);
        return ("k" + i).getBytes();
    }

    private static byte[] value(Random rnd, int i) {
        int len = rnd.nextInt(10) == 0 ? 2000 + rnd.nextInt(8000) : 10 + rnd.nextInt(100);
        byte[] v = new byte[len];
        Arrays.fill(v, (byte) ('a' + i % 26));
        v[0] = (byte) i;
        v[1] = (byte) (i >> 8);
        return v;
    }
}
