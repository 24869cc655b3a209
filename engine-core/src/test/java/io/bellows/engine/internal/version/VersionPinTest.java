package io.bellows.engine.internal.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.carrotsearch.hppc.LongLongHashMap;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.compaction.leveled.LeveledScheme;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.StripedPins;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Point reads pin versions on their thread's stripe instead of referencing them: a pinned version must
 * stay live (its files kept) after it is replaced, until the last pin goes, and be given up exactly
 * once whichever of the version set and the readers lets go last.
 */
class VersionPinTest {
    @Test
    void aPinnedVersionOutlivesItsReplacementUntilUnpinned() {
        AtomicInteger unreferenced = new AtomicInteger();
        Version v = new Version(Version.emptyLevels(1), new LongLongHashMap(), x -> unreferenced.incrementAndGet());
        int stripe = StripedPins.stripe();
        v.pin(stripe);
        v.pin(stripe);
        v.release(); // the version set lets go: replaced
        assertEquals(0, unreferenced.get(), "two pins still held");
        v.unpin(stripe);
        assertEquals(0, unreferenced.get(), "one pin still held");
        v.unpin(stripe);
        assertEquals(1, unreferenced.get());
        // A reader that pins the replaced version and drops it at once (pinCurrent's retry) frees nothing again.
        v.pin(stripe);
        v.unpin(stripe);
        assertEquals(1, unreferenced.get());
    }

    @Test
    void anUnpinnedVersionIsGivenUpWhenReleased() {
        AtomicInteger unreferenced = new AtomicInteger();
        Version v = new Version(Version.emptyLevels(1), new LongLongHashMap(), x -> unreferenced.incrementAndGet());
        int stripe = StripedPins.stripe();
        v.pin(stripe);
        v.unpin(stripe);
        assertEquals(0, unreferenced.get(), "still referenced by the version set");
        v.release();
        assertEquals(1, unreferenced.get());
    }

    /**
     * Readers pin the current version and check that its one table is live while they hold it, as an
     * installer replaces the version (each edit swaps the table for a new one) as fast as it can.
     */
    @Test
    void pinnedVersionsKeepTheirTablesLiveWhileVersionsChange() throws Exception {
        long seed = TestSeeds.seed("VersionPinTest.concurrent");
        Random rnd = new Random(seed);
        CrashableFileSystem fs = new CrashableFileSystem();
        Path dir = Path.of("/db");
        fs.createDirectories(dir);
        LeveledScheme scheme = new LeveledScheme(EngineOptions.defaults());
        VersionSet versions = new VersionSet(dir, fs, 2, scheme, () -> {});
        versions.create("LEVELED");
        long first = versions.newFileNumber();
        versions.logAndApply(new VersionEdit().addFile(1, table(first)));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger pins = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int sleepEvery = 1 + rnd.nextInt(64);
            Thread r = new Thread(() -> {
                int stripe = StripedPins.stripe();
                try {
                    for (int i = 0; !stop.get(); i++) {
                        Version v = versions.pinCurrent(stripe);
                        try {
                            long table = v.files(1).get(0).number;
                            if (i % sleepEvery == 0) {
                                Thread.yield(); // hold the pin across installs now and then
                            }
                            if (!versions.liveTables().contains(table)) {
                                throw new AssertionError("table " + table + " of a pinned version is not live");
                            }
                        } finally {
                            v.unpin(stripe);
                        }
                        pins.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            readers.add(r);
            r.start();
        }
        long previous = first;
        for (int i = 0; i < 10_000 && failure.get() == null; i++) {
            long next = versions.newFileNumber();
            versions.logAndApply(new VersionEdit().deleteFile(1, previous).addFile(1, table(next)));
            previous = next;
        }
        stop.set(true);
        for (Thread r : readers) {
            r.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed=" + seed, failure.get());
        }
        assertTrue(pins.get() > 0, "readers ran");
        assertArrayEquals(new long[] {previous}, versions.liveTables().toArray(),
                "seed=" + seed + ": once unpinned, every replaced version was given up");
        versions.close();
    }

    private static FileMeta table(long number) throws IOException {
        return new FileMeta(number, 100, "a".getBytes(), 1, "z".getBytes(), 1, 1, 1);
    }
}
