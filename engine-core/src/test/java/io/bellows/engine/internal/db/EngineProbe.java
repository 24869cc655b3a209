package io.bellows.engine.internal.db;

import io.bellows.engine.internal.version.VersionSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * Test access to an engine's internals from other packages (the fault-point tests in
 * {@code internal.faults}): its version set, the logs its tables still read, and whether its background work
 * has settled.
 */
public final class EngineProbe {
    private EngineProbe() {}

    public static VersionSet versions(EngineImpl db) {
        return db.versions();
    }

    /** The logs below the manifest's log number that tables of live versions still read (CL-tables). */
    public static Set<Long> liveLogs(EngineImpl db) {
        Set<Long> out = new TreeSet<>();
        db.scheme().liveLogs(db.versions().liveTables()::contains, out::add);
        return out;
    }

    /** The engine's compaction scheme (a scheme's own tests cast it). */
    public static Object scheme(EngineImpl db) {
        return db.scheme();
    }

    /** Whether no MemStore snapshot waits for a flush and no compaction runs or is due. */
    public static boolean settled(EngineImpl db) {
        return !db.memstore().hasSnapshot() && db.compactionIdle();
    }
}
