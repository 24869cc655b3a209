package io.bellows.engine.internal.compaction.ptier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EventListener;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.db.EngineProbe;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariants of PTIER's versions during a randomized run with automatic compactions only, checked on
 * every version the run sees installed (after each operation): each level sorted by smallest key; every table of L<sub>i</sub> newer than
 * every table of L<sub>i+1</sub> it overlaps (whole levels move down, so nothing older can sit above
 * something newer); and, every few hundred operations, every key reads as the model says (no version lost, the newest one found,
 * whichever tables of a level hold it). Then compactRange leaves the last level of disjoint tables.
 */
class PtierInvariantTest {
    private static final int KEYS = 3000;
    /**
     * A level holds overlapping tables between a push that moves tables in beside others and the merge
     * that removes the overlap (read-triggered, or the next push). Since compactions read their inputs
     * ahead, they ran so fast on a quiet machine that in this short run no version with an overlap was
     * ever current when the writer looked; each is made to take a few milliseconds more, as a slower
     * disk would, so that the invariants are checked on such versions.
     */
    private static final EventListener SLOW_COMPACTIONS = new EventListener() {
        @Override
        public void onCompactionBegin(EventListener.CompactionInfo info) {
            try {
                Thread.sleep(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    };

    @TempDir
    Path dir;

    @ParameterizedTest(name = "prefixLength={0}")
    @ValueSource(ints = {1, 2, 15})
    void versionsKeepTheirInvariants(int prefixLength) throws Exception {
        long seed = TestSeeds.seed("PtierInvariantTest");
        Random rnd = new Random(seed + prefixLength);
        EngineOptions options = EngineConfigs.small(CompactionStyle.PTIER, InMemoryCompaction.NONE)
                .compaction(EngineConfigs.smallPtier().prefixLength(prefixLength).intraLevelMergeReads(5).build())
                .numLevels(4).maxBytesForLevelBase(64 << 10).levelSizeMultiplier(2).listeners(SLOW_COMPACTIONS).build();
        byte[][] model = new byte[KEYS][];
        int deepest = 0;
        int mostOverlapped = 0;
        int versionsChecked = 0;
        Version checked = null;
        try (Engine db = Engine.open(dir, options)) {
            for (int op = 1; op <= 8000; op++) {
                int k = rnd.nextInt(KEYS);
                if (rnd.nextInt(5) == 0) {
                    db.delete(key(k));
                    model[k] = null;
                } else {
                    model[k] = new byte[100 + rnd.nextInt(300)];
                    rnd.nextBytes(model[k]);
                    db.put(key(k), model[k]);
                }
                Version v = EngineProbe.versions((EngineImpl) db).current();
                if (v != checked) {
                    checkVersion(v, "op " + op);
                    checked = v;
                    versionsChecked++;
                    // Every version the writer sees, not one per 400 operations: overlaps are short-lived.
                    for (int level = 1; level < v.numLevels(); level++) {
                        if (!v.files(level).isEmpty()) {
                            deepest = Math.max(deepest, level);
                            List<FileMeta> sorted = v.files(level);
                            mostOverlapped = Math.max(mostOverlapped,
                                    sorted.size() - MergeMovePlanner.overlapGroups(sorted).size());
                        }
                    }
                }
                if (op % 400 == 0) {
                    checkReads(db, model, "op " + op);
                }
            }
            assertEquals(options.numLevels() - 1, deepest, "the run reached the last level");
            assertTrue(versionsChecked > 10, "versions checked: " + versionsChecked);
            assertTrue(mostOverlapped > 0, "some level held overlapping tables");
            db.compactRange(null, null);
            Version v = EngineProbe.versions((EngineImpl) db).current();
            checkVersion(v, "after compactRange");
            for (int level = 0; level < v.numLevels() - 1; level++) {
                assertTrue(v.files(level).isEmpty(), "L" + level + " after compactRange: " + v.files(level));
            }
            List<List<FileMeta>> groups = MergeMovePlanner.overlapGroups(v.files(v.numLevels() - 1));
            assertEquals(v.files(v.numLevels() - 1).size(), groups.size(), "the last level is disjoint");
            checkReads(db, model, "after compactRange");
        }
        try (Engine db = Engine.open(dir, options)) {
            checkReads(db, model, "after reopen");
        }
    }

    private static void checkVersion(Version v, String where) {
        for (int level = 1; level < v.numLevels(); level++) {
            List<FileMeta> files = v.files(level);
            for (int i = 1; i < files.size(); i++) {
                assertTrue(files.get(i - 1).compareSmallest(files.get(i)) <= 0, where + ": L" + level + " unsorted");
            }
        }
        for (int level = 0; level + 1 < v.numLevels(); level++) {
            for (FileMeta upper : v.files(level)) {
                for (int deeper = level + 1; deeper < v.numLevels(); deeper++) {
                    for (FileMeta lower : v.overlapping(deeper, upper.smallestKey, upper.largestKey)) {
                        assertTrue(upper.maxSequence > lower.maxSequence, where + ": L" + level + " " + upper
                                + " is not newer than the overlapping L" + deeper + " " + lower);
                    }
                }
            }
        }
    }

    private static void checkReads(Engine db, byte[][] model, String where) {
        for (int k = 0; k < KEYS; k++) {
            byte[] got = db.get(key(k));
            if (model[k] == null) {
                assertNull(got, where + ": key " + k + " was deleted");
            } else {
                assertArrayEquals(model[k], got, where + ": key " + k);
            }
        }
    }

    private static byte[] key(int k) {
        return new byte[] {(byte) (k % 7), (byte) (k >>> 8), (byte) k};
    }
}
