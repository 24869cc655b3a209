package io.bellows.engine.internal.db;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a store's state: creates or recovers the manifest (refusing a store made with another scheme),
 * replays the WAL files the manifest still needs into the MemStore, writes what they held to tables,
 * and starts a new WAL. Runs once, on the opening thread, before any background thread exists.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    private final EngineContext ctx;
    private final FlushWriter flushWriter;
    private final VersionSet versions;
    private final MemStore memstore;

    Recovery(EngineContext ctx, FlushWriter flushWriter) {
        this.ctx = ctx;
        this.flushWriter = flushWriter;
        this.versions = ctx.versions;
        this.memstore = ctx.memstore;
    }

    /** Recovers the store and returns the new WAL, the first log the manifest now needs. */
    Wal run() throws IOException {
        Path dir = ctx.dir;
        if (versions.exists()) {
            if (ctx.options.errorIfExists()) {
                throw new IllegalArgumentException("store " + dir + " already exists (errorIfExists is set)");
            }
            String recorded = versions.recover();
            if (!recorded.equals(ctx.options.compaction().name())) {
                throw new IllegalArgumentException("store " + dir + " was created with compaction scheme " + recorded
                        + " and cannot be opened with " + ctx.options.compaction()
                        + "; open it with compaction(" + recorded + ")");
            }
        } else {
            if (!ctx.options.createIfMissing()) {
                throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
            }
            versions.create(ctx.options.compaction().name());
        }
        List<Long> logs = new ArrayList<>();
        for (String name : ctx.fs.list(dir)) {
            long n = FileNames.number(name, FileNames.LOG_SUFFIX);
            if (n >= 0) {
                versions.markFileNumberUsed(n);
                if (n >= versions.logNumber()) {
                    logs.add(n);
                }
            }
        }
        logs.sort(null);
        long maxSeq = versions.lastSequence();
        for (long n : logs) {
            maxSeq = Math.max(maxSeq, replayLog(n));
            versions.setLastSequence(maxSeq);
            if (memstore.shouldFlush()) {
                writeRecoveredTable(-1);
            }
        }
        versions.setLastSequence(maxSeq);
        long walNumber = versions.newFileNumber();
        Wal wal = new Wal(dir, ctx.fs, walNumber);
        boolean ok = false;
        try {
            writeRecoveredTable(walNumber);
            ok = true;
        } finally {
            if (!ok) {
                try {
                    wal.close();
                } catch (IOException ignored) {
                    // open is failing anyway
                }
            }
        }
        return wal;
    }

    /** Replays one WAL file into the MemStore; returns the highest sequence it held. */
    private long replayLog(long number) throws IOException {
        Path path = FileNames.log(ctx.dir, number);
        LogReader reader = new LogReader(ctx.fs.readAll(path), path, FileHeader.KIND_WAL);
        long[] max = {0};
        byte[] record;
        while ((record = reader.next()) != null) {
            // A bounded (off-heap) MemStore may be full before it is due for a flush (records of small
            // cells outweigh their data bytes, or the logs came from a larger MemStore): nothing would
            // return its memory, so the recovered data goes to a table first. Each operation takes at
            // least 2 encoded bytes, so a record holds at most length / 2 cells.
            if (!memstore.hasRoomFor(record.length, record.length / 2) && !memstore.isActiveEmpty()) {
                versions.setLastSequence(Math.max(versions.lastSequence(), max[0]));
                writeRecoveredTable(-1);
            }
            BatchCodec.decode(record, path, reader.lastRecordOffset(), (seq, kind, key, value) -> {
                memstore.add(key, seq, kind, value);
                max[0] = Math.max(max[0], seq);
            });
            memstore.endWrite();
        }
        if (reader.tornTailOffset() >= 0) {
            LOG.warn("{}: cut a torn tail at offset {} (an interrupted write that was never acknowledged as synced)",
                    path, reader.tornTailOffset());
        }
        return max[0];
    }

    /**
     * Writes what recovery put in the MemStore to tables and records {@code newLog} (if >= 0) as the
     * first log still needed.
     */
    private void writeRecoveredTable(long newLog) throws IOException {
        VersionEdit edit = new VersionEdit();
        if (!memstore.isActiveEmpty()) {
            List<Segment> segments = memstore.snapshot();
            for (FileMeta f : flushWriter.write(segments)) {
                ctx.scheme.placeFlush(versions.current(), f, edit);
            }
        }
        if (newLog >= 0) {
            edit.logNumber(newLog);
        }
        versions.logAndApply(edit);
        ctx.pendingOutputs.clear();
        if (memstore.hasSnapshot()) {
            memstore.clearSnapshot();
        }
    }
}
