package io.bellows.engine.internal.db;

import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * Makes a checkpoint: an openable, consistent copy of a live store in another directory, as RocksDB's
 * {@code Checkpoint::CreateCheckpoint}. With the obsolete-file sweep paused (so no file it needs is
 * deleted meanwhile, while flushes and compactions go on), the version set writes the current state as
 * the checkpoint's manifest; the tables of that version are hard-linked (or copied), and every log the
 * state needs (those from its log number on, and older ones a CL-table reads) is copied as it is then. A log being
 * appended is cut at a record boundary or inside a record, which recovery takes as a torn tail, so the
 * checkpoint holds a prefix of the writes that includes every write acknowledged before the call.
 */
final class Checkpoints {
    private Checkpoints() {}

    static void make(EngineContext ctx, ObsoleteFiles obsolete, FileSweeper sweeper, Path target)
            throws IOException {
        if (ctx.fs.exists(target)) {
            throw new IllegalArgumentException("checkpoint directory " + target + " already exists");
        }
        ctx.fs.createDirectories(target);
        obsolete.pause();
        try {
            VersionSet.Checkpoint c = ctx.versions.writeCheckpoint(target);
            Version v = c.version();
            try {
                Set<Long> tables = new HashSet<>();
                for (int level = 0; level < v.numLevels(); level++) {
                    for (FileMeta f : v.files(level)) {
                        tables.add(f.number);
                        ctx.fs.linkOrCopy(FileNames.table(ctx.dir, f.number), FileNames.table(target, f.number));
                    }
                }
                Set<Long> logs = new TreeSet<>();
                ctx.scheme.liveLogs(tables::contains, logs::add);
                for (String name : ctx.fs.list(ctx.dir)) {
                    long log = FileNames.number(name, FileNames.LOG_SUFFIX);
                    if (log >= c.logNumber()) {
                        logs.add(log);
                    }
                }
                for (long log : logs) {
                    copyLog(ctx, FileNames.log(ctx.dir, log), FileNames.log(target, log));
                }
            } finally {
                v.release();
            }
        } finally {
            obsolete.resume();
            sweeper.schedule();
        }
        ctx.fs.syncDirectory(target);
    }

    /** Copies what the log holds now; a write still being appended may be cut, which reads as a torn tail. */
    private static void copyLog(EngineContext ctx, Path source, Path target) throws IOException {
        byte[] b = ctx.fs.readAll(source);
        try (var out = ctx.fs.createLog(target)) {
            out.append(b, 0, b.length);
            out.sync();
        }
    }
}
