package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.BackgroundQuiet;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A closed FLSM store read back the way recovery reads it (manifest replay into a fresh scheme), so
 * tests can check its guards and tables. Recovery itself rebuilds and checks the guard index.
 */
final class FlsmStore {
    final FlsmScheme scheme;
    final GuardIndex index;

    private FlsmStore(FlsmScheme scheme, GuardIndex index) {
        this.scheme = scheme;
        this.index = index;
    }

    static FlsmStore open(Path dir, FileSystem fs, EngineOptions options) {
        FlsmScheme scheme = new FlsmScheme(options);
        try (VersionSet versions = new VersionSet(dir, fs, options.numLevels(), scheme, () -> {})) {
            versions.recover("FLSM");
            Version v = versions.current();
            return new FlsmStore(scheme, (GuardIndex) v.schemeIndex());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until no compaction has run for a while (the store is settled). */
    static void awaitQuiet(Engine db) throws InterruptedException {
        BackgroundQuiet.await(db);
    }

    /** Tables at the deepest level. */
    int lastLevelTables() {
        return index.levels[index.numLevels() - 1].tableCount;
    }

    int committedGuards(int level) {
        return index.levels[level].guardCount() - 1;
    }

    /**
     * The FLSM invariants: guards of level i are guards of level i+1; every committed guard's hash
     * qualifies it at its level; no table straddles a committed guard of its level.
     */
    void checkInvariants() {
        GuardHash hash = scheme.hash();
        for (int level = 1; level < index.numLevels(); level++) {
            GuardLevel gl = index.levels[level];
            if (level + 1 < index.numLevels()) {
                Set<String> deeper = new HashSet<>();
                GuardLevel next = index.levels[level + 1];
                for (int g = 1; g < next.guardCount(); g++) {
                    deeper.add(Bytes.toHex(next.keys[g]));
                }
                for (int g = 1; g < gl.guardCount(); g++) {
                    assertTrue(deeper.contains(Bytes.toHex(gl.keys[g])),
                            "guard " + Bytes.toHex(gl.keys[g]) + " of L" + level + " is not a guard of L" + (level + 1));
                }
            }
            for (int g = 0; g < gl.guardCount(); g++) {
                if (g > 0) {
                    int top = hash.topLevel(gl.keys[g]);
                    assertTrue(top >= 1 && top <= level, "guard " + Bytes.toHex(gl.keys[g]) + " at L" + level
                            + " has top level " + top);
                }
                for (FileMeta f : gl.tables[g]) {
                    int lv = level;
                    int gi = g;
                    assertTrue(g == 0 || Bytes.compare(f.smallestKey, gl.lower(g)) >= 0, () -> f + " below its guard");
                    assertTrue(gl.upper(g) == null || Bytes.compare(f.largestKey, gl.upper(g)) < 0,
                            () -> f + " straddles guard " + Bytes.toHex(gl.upper(gi)) + " at L" + lv);
                }
            }
        }
        synchronized (scheme) {
            for (GuardSet.Guard g : scheme.guards().all().values()) {
                // Retiring a guard at a level raises its top level above the one its hash gives.
                assertTrue(g.top >= hash.topLevel(g.key) && hash.topLevel(g.key) >= 1,
                        "recorded top level " + g.top + " of " + Bytes.toHex(g.key));
            }
        }
    }
}
