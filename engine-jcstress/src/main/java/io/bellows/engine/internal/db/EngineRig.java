package io.bellows.engine.internal.db;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.SchemeRegistry;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreRig;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.file.Path;

/**
 * The parts of an engine that snapshot publication involves, wired as {@code EngineImpl} wires them:
 * the version set's published sequence, the snapshot list, a compacting MemStore whose context reads
 * both, and the read path that takes snapshots and reads at them. Nothing touches a file: the version
 * set is never recovered and the current version has no tables.
 */
final class EngineRig {
    private static final Path DIR = Path.of("jcstress-store");
    private static final EngineOptions OPTIONS = MemStoreRig.options(InMemoryCompaction.EAGER, MemoryLayout.ON_HEAP, 4);

    final VersionSet versions;
    final SnapshotList snapshots = new SnapshotList();
    final MemStoreRig memstore;
    final ReadPath reads;

    EngineRig() {
        CompactionScheme scheme = SchemeRegistry.create(OPTIONS);
        versions = new VersionSet(DIR, null, scheme.numLevels(OPTIONS), scheme, () -> { });
        memstore = new MemStoreRig(OPTIONS, versions::lastSequence, snapshots::sequences);
        EngineContext ctx = new EngineContext(DIR, OPTIONS, null, new EngineCounters(), new MemStoreCounters(), scheme,
                versions, memstore.store, null, snapshots);
        reads = new ReadPath(new EngineState(DIR), ctx, null, this);
    }

    /** What the write leader does once a group is in the MemStore: makes its last sequence visible. */
    void publish(long seq) {
        versions.setLastSequence(seq);
    }
}
