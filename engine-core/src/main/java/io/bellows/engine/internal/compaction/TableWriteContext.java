package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.TableFinisher;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a {@link TableSink} needs from the engine: where tables go, how file numbers are allocated and
 * protected from the obsolete-file sweep ({@code pendingOutputs}), the SSTable format settings, the
 * table contents already on disk, the counter its written bytes add to (flush or compaction), and the
 * finisher that syncs and closes its table files (null: the writing thread does).
 */
public record TableWriteContext(Path dir, FileSystem fs, VersionSet versions, TableOutputs.Format format,
        Set<Long> pendingOutputs, TableSource tables, LongAdder bytesWritten, TableFinisher finisher) {}
