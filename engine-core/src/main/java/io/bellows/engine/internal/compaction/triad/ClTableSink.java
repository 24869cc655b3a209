package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.compaction.TableAnnotator;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TRIAD-LOG's flush (paper §4.3): the flushed versions are not copied, the logs that hold them become a
 * CL-table and only its sorted index is written. Each PUT the flush keeps points at its operation in one of
 * the snapshot's durable logs; a version no such log holds (an unlogged write, a log that was not forced or
 * is damaged) and every tombstone is stored in the index itself, so the table answers for every entry the
 * flush was given. One table per flush, as for SSTables.
 */
final class ClTableSink implements TableSink {
    private final TableWriteContext ctx;
    private final long[] logs;
    private final TableAnnotator annotator;
    private final TableLogs tableLogs;
    private final ClTableStats stats;
    private final List<Long> created = new ArrayList<>(1);
    private LogIndex index;
    private ClTableWriter writer;
    private long number;
    private Path path;
    private boolean fileCreated;
    private byte[] smallestKey;
    private long smallestSeq;
    /** The last user key added is lastKey[0, lastKeyLength); none yet when negative. */
    private byte[] lastKey;
    private int lastKeyLength = -1;
    private long lastSeq;
    private long maxSeq;
    private long pointers;
    private final Slice keyArg = new Slice();
    private final Slice valueArg = new Slice();

    ClTableSink(TableWriteContext ctx, long[] logs, TableAnnotator annotator, TableLogs tableLogs, ClTableStats stats) {
        this.ctx = ctx;
        this.logs = logs;
        this.annotator = annotator;
        this.tableLogs = tableLogs;
        this.stats = stats;
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) throws IOException {
        TableSink.checkArrays(key, kind, value);
        add(keyArg.set(key), seq, kind, valueArg.set(value));
    }

    /**
     * Writes the entry's bytes straight from the views into the index; beyond the index only the table's
     * first key is copied out, and the last key is kept in scratch for the table's key range.
     */
    @Override
    public void add(Slice key, long seq, int kind, Slice value) throws IOException {
        if (writer == null) {
            number = ctx.versions().newFileNumber();
            ctx.pendingOutputs().add(number);
            created.add(number);
            path = FileNames.table(ctx.dir(), number);
            index = LogIndex.read(ctx.dir(), ctx.fs(), logs);
            writer = new ClTableWriter(logs);
            smallestKey = key.copy();
            smallestSeq = seq;
        }
        long p = kind == InternalKeys.KIND_PUT ? index.position(seq) : -1;
        if (p >= 0) {
            writer.addPointer(key, seq, kind, LogIndex.logIndex(p), LogIndex.chunkOffset(p), LogIndex.offsetInChunk(p));
            pointers++;
        } else {
            writer.addInline(key, seq, kind, value);
        }
        if (lastKeyLength < 0 || !key.contentEquals(lastKey, lastKeyLength)) {
            if (annotator != null) {
                annotator.addKey(key);
            }
            lastKey = key.copyInto(lastKey);
            lastKeyLength = key.length();
        }
        lastSeq = seq;
        maxSeq = Math.max(maxSeq, seq);
    }

    @Override
    public List<FileMeta> finish() throws IOException {
        if (writer == null) {
            return List.of();
        }
        WritableFile f = ctx.fs().createTable(path);
        fileCreated = true;
        long size;
        try {
            size = writer.finish(f, annotator == null ? null : annotator.finish(number));
        } catch (IOException | RuntimeException e) {
            try {
                f.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        ctx.bytesWritten().add(size);
        ctx.fs().syncDirectory(ctx.dir());
        tableLogs.put(number, logs);
        stats.written(writer.entries(), pointers);
        index = null;
        return List.of(new FileMeta(number, size, smallestKey, smallestSeq, Arrays.copyOf(lastKey, lastKeyLength), lastSeq,
                writer.entries(), maxSeq));
    }

    @Override
    public List<Long> created() {
        return created;
    }

    @Override
    public void abandon() {
        if (fileCreated) {
            try {
                ctx.fs().delete(path);
            } catch (IOException ignored) {
                // left behind as an orphan; the next open's sweep removes it
            }
        }
        writer = null;
        index = null;
    }
}
