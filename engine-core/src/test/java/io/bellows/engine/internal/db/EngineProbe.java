package io.bellows.engine.internal.db;

import io.bellows.engine.internal.version.VersionSet;

/**
 * Test access to an engine's internals from other packages (the fault-point tests in
 * {@code internal.faults}): its version set, and whether its background work has settled.
 */
public final class EngineProbe {
    private EngineProbe() {}

    public static VersionSet versions(EngineImpl db) {
        return db.versions();
    }

    /** Whether no MemStore snapshot waits for a flush and no compaction runs or is due. */
    public static boolean settled(EngineImpl db) {
        return !db.memstore().hasSnapshot() && db.compactionIdle();
    }
}
