package io.bellows.engine.internal.db;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.BatchCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a store's state: recovers the manifest (refusing a store made with another scheme) or creates
 * one, replays the WAL files the manifest still needs into the MemStore under the {@link WalReplay}'s
 * recovery mode, writes what they held to tables, and starts a new WAL. Runs once, on the opening
 * thread, before any background thread exists.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    private final EngineContext ctx;
    private final FlushWriter flushWriter;
    private final VersionSet versions;
    private final MemStore memstore;
    /** Encoded bytes of an operation besides its key and value: the kind and two varint lengths. */
    private static final int OP_OVERHEAD = 11;

    Recovery(EngineContext ctx, FlushWriter flushWriter) {
        this.ctx = ctx;
        this.flushWriter = flushWriter;
        this.versions = ctx.versions;
        this.memstore = ctx.memstore;
    }

    /**
     * Recovers the store and returns the new WAL, the first log the manifest now needs. Every check that
     * can refuse the open (existence, scheme, options the store's state must fit, manifest and WAL damage
     * under the recovery mode, tables the scheme reads at open) runs before the first write, so a refused
     * open leaves the store as it was.
     */
    Wal run() throws IOException {
        Path dir = ctx.dir;
        boolean exists = versions.exists();
        if (exists) {
            if (ctx.options.errorIfExists()) {
                throw new IllegalArgumentException("store " + dir + " already exists (errorIfExists is set)");
            }
            versions.recover(ctx.options.compaction().name());
        } else if (!ctx.options.createIfMissing()) {
            throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
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
        WalReplay replay = new WalReplay(dir, ctx.fs, ctx.options.walRecoveryMode());
        ctx.counters.recovery = replay.run(logs, null);
        if (exists) {
            // What the scheme keeps of its tables is read before the first write, so a damaged table it
            // reads (TRIAD: a CL-table naming its logs) refuses the open with the store as it was.
            ctx.scheme.recovered(versions.current(), ctx.tables);
        }
        // Nothing was written before this point.
        if (exists) {
            versions.startNewManifest();
        } else {
            versions.create(ctx.options.compaction().name());
        }
        long[] maxSeq = {versions.lastSequence()};
        replay.run(logs, (record, path, offset) -> maxSeq[0] = Math.max(maxSeq[0], apply(record)));
        versions.setLastSequence(maxSeq[0]);
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
        keepDamagedLogs(replay.damagedLogs());
        return wal;
    }

    /**
     * Renames the damaged WAL files, whose replayable records are now in tables: the manifest no longer
     * needs them, and the sweep would delete the evidence.
     */
    private void keepDamagedLogs(List<Long> numbers) {
        for (long n : numbers) {
            Path kept = FileNames.corruptLog(ctx.dir, n);
            try {
                ctx.fs.rename(FileNames.log(ctx.dir, n), kept);
                LOG.error("kept the damaged WAL file as {} for inspection (the store no longer needs it; delete it"
                        + " when done)", kept);
            } catch (IOException e) {
                LOG.error("could not keep the damaged WAL file {}; the sweep will delete it", FileNames.log(ctx.dir, n), e);
            }
        }
    }

    /** Applies one WAL record to the MemStore, flushing first if it is full; returns its last sequence. */
    private long apply(byte[] record) throws IOException {
        // A bounded (off-heap) MemStore may be full before it is due for a flush (records of small cells
        // outweigh their data bytes, or the logs came from a larger MemStore): nothing would return its
        // memory, so the recovered data goes to a table first. Each operation takes at least 2 encoded
        // bytes, so a record holds at most length / 2 cells.
        if (!memstore.hasRoomFor(record.length, record.length / 2) && !memstore.isActiveEmpty()) {
            writeRecoveredTable(-1);
        }
        // A record larger than the whole MemStore (a process with a larger one logged it) is split between
        // tables, cell by cell: the log stays needed until recovery ends and nothing reads the store before,
        // so no reader can see a part of the group.
        boolean whole = memstore.hasRoomFor(record.length, record.length / 2);
        long first = Coding.getLong(record, 0);
        long next;
        try {
            // WalReplay validated the record, as forEachOp requires.
            next = BatchCodec.forEachOp(record, BatchCodec.HEADER_LENGTH, record.length, first,
                    (seq, kind, buf, keyOff, keyLen, valueOff, valueLen) -> {
                        if (!whole && !memstore.hasRoomFor(keyLen + valueLen + OP_OVERHEAD, 1)
                                && !memstore.isActiveEmpty()) {
                            memstore.endWrite();
                            // The manifest's last sequence covers what the table holds, so that a later open
                            // that did not reach this record would not give its sequences out again.
                            if (seq - 1 > versions.lastSequence()) {
                                versions.setLastSequence(seq - 1);
                            }
                            writeRecoveredTableUnchecked();
                        }
                        memstore.add(buf, keyOff, keyLen, kind == InternalKeys.KIND_PUT ? buf : null, valueOff, valueLen,
                                seq, kind);
                    });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        memstore.endWrite();
        long max = next - 1;
        if (next > first && max > versions.lastSequence()) {
            versions.setLastSequence(max);
        }
        if (memstore.shouldFlush()) {
            writeRecoveredTable(-1);
        }
        return next > first ? max : 0;
    }

    private void writeRecoveredTableUnchecked() {
        try {
            writeRecoveredTable(-1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
