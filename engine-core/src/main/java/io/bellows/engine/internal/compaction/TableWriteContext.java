package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a {@link TableSink} needs from the engine: where tables go, how file numbers are allocated and
 * protected from the obsolete-file sweep ({@code pendingOutputs}), the SSTable format settings, the
 * table contents already on disk, and the counter its written bytes add to (flush or compaction).
 */
public record TableWriteContext(Path dir, FileSystem fs, VersionSet versions, TableOutputs.Format format,
        Set<Long> pendingOutputs, TableSource tables, LongAdder bytesWritten) {}
