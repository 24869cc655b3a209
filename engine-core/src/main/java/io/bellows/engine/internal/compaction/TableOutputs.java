package io.bellows.engine.internal.compaction;

import io.bellows.engine.Compression;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.TableFinisher;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.table.TableBuildBuffers;
import io.bellows.engine.internal.table.TableBuilder;
import io.bellows.engine.internal.table.TableProperties;
import io.bellows.engine.internal.table.TableReader;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes a stream of entries (internal-key order) into one or more new tables, cutting only between
 * user keys so that no user key ever spans two tables of a run. Every table number in progress is
 * registered in {@code pendingOutputs} so the obsolete-file sweep leaves it alone.
 */
public final class TableOutputs implements TableSink {
    /** Table-format settings shared by every output, with the codec of their data blocks. */
    public record Format(int blockSize, int restartInterval, int bloomBitsPerKey, Compression compression) {
        public Format(int blockSize, int restartInterval, int bloomBitsPerKey) {
            this(blockSize, restartInterval, bloomBitsPerKey, Compression.NONE);
        }

        public Format withCompression(Compression c) {
            return new Format(blockSize, restartInterval, bloomBitsPerKey, c);
        }
    }

    private final Path dir;
    private final FileSystem fs;
    private final VersionSet versions;
    private final Format format;
    private final Set<Long> pendingOutputs;
    private final LongAdder bytesWritten;
    private final Compaction.Splitter splitter;
    private final TableAnnotator annotator;
    private final List<FileMeta> finished = new ArrayList<>();
    /** Where each finished table's reader goes once its file is synced (null: nowhere), and its parts. */
    private final TableSource tables;
    private final List<TableReader.Written> written = new ArrayList<>();
    private final List<Long> created = new ArrayList<>();
    /** The files handed to the engine's finisher to sync and close; null: synced here. */
    private final TableFinisher.Batch finishing;

    private TableBuilder builder;
    /** One set of builder buffers for every table this sink writes (one builder at a time). */
    private final TableBuildBuffers buffers = new TableBuildBuffers();
    private long number;
    /** The last user key written is lastKey[0, lastKeyLength); none yet when negative. */
    private byte[] lastKey;
    private int lastKeyLength = -1;
    private long maxSeq;
    private final Slice keyArg = new Slice();
    private final Slice valueArg = new Slice();

    public TableOutputs(Path dir, FileSystem fs, VersionSet versions, Format format, Set<Long> pendingOutputs,
            LongAdder bytesWritten, Compaction.Splitter splitter) {
        this(dir, fs, versions, format, pendingOutputs, bytesWritten, splitter, null);
    }

    /** As the constructor above, storing {@code annotator}'s metadata (null: none) with each table. */
    public TableOutputs(Path dir, FileSystem fs, VersionSet versions, Format format, Set<Long> pendingOutputs,
            LongAdder bytesWritten, Compaction.Splitter splitter, TableAnnotator annotator) {
        this(dir, fs, versions, format, pendingOutputs, bytesWritten, splitter, annotator, null, null);
    }

    private TableOutputs(Path dir, FileSystem fs, VersionSet versions, Format format, Set<Long> pendingOutputs,
            LongAdder bytesWritten, Compaction.Splitter splitter, TableAnnotator annotator, TableFinisher finisher,
            TableSource tables) {
        this.finishing = finisher == null ? null : finisher.batch();
        this.tables = tables;
        this.annotator = annotator;
        this.dir = dir;
        this.fs = fs;
        this.versions = versions;
        this.format = format;
        this.pendingOutputs = pendingOutputs;
        this.bytesWritten = bytesWritten;
        this.splitter = splitter;
    }

    /** An SSTable sink for {@code ctx}, cut by {@code splitter} (null: one table). */
    public TableOutputs(TableWriteContext ctx, Compaction.Splitter splitter) {
        this(ctx, splitter, null);
    }

    /** An SSTable sink for {@code ctx}, cut by {@code splitter}, each table carrying {@code annotator}'s metadata. */
    public TableOutputs(TableWriteContext ctx, Compaction.Splitter splitter, TableAnnotator annotator) {
        this(ctx.dir(), ctx.fs(), ctx.versions(), ctx.format(), ctx.pendingOutputs(), ctx.bytesWritten(), splitter,
                annotator, ctx.finisher(), ctx.tables());
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) throws IOException {
        TableSink.checkArrays(key, kind, value);
        add(keyArg.set(key), seq, kind, valueArg.set(value));
    }

    /** Writes the entry straight from the views into the table being built; only the last key is kept. */
    @Override
    public void add(Slice key, long seq, int kind, Slice value) throws IOException {
        boolean newKey = lastKeyLength < 0 || !key.contentEquals(lastKey, lastKeyLength);
        if (builder != null && newKey && splitter != null && splitter.splitBefore(key, builder.estimatedFileSize())) {
            finishCurrent();
        }
        if (builder == null) {
            number = versions.newFileNumber();
            pendingOutputs.add(number);
            created.add(number);
            Path path = FileNames.table(dir, number);
            WritableFile file = fs.createTable(path);
            if (finishing != null) {
                file = finishing.track(file);
            }
            builder = new TableBuilder(file, path, format.blockSize(), format.restartInterval(), format.bloomBitsPerKey(),
                    format.compression(), buffers);
            maxSeq = 0;
            if (splitter != null) {
                splitter.tableStarted(key.copy());
            }
        }
        builder.add(key, seq, kind, value);
        maxSeq = Math.max(maxSeq, seq);
        if (newKey) {
            lastKey = key.copyInto(lastKey);
            lastKeyLength = key.length();
            if (annotator != null) {
                annotator.addKey(key);
            }
        }
    }

    private void finishCurrent() throws IOException {
        TableProperties p = builder.finish(annotator == null ? null : annotator.finish(number));
        if (tables != null) {
            written.add(builder.written());
        }
        builder = null;
        bytesWritten.add(p.fileSize());
        finished.add(new FileMeta(number, p.fileSize(), p.smallestKey(), p.smallestSeq(), p.largestKey(),
                p.largestSeq(), p.entries(), maxSeq));
    }

    @Override
    public void endTable() throws IOException {
        if (builder != null) {
            finishCurrent();
        }
    }

    /** Finishes the last table and makes every new table durable (including its directory entry). */
    @Override
    public List<FileMeta> finish() throws IOException {
        if (builder != null) {
            finishCurrent();
        }
        if (finishing != null) {
            finishing.await();
        }
        if (!finished.isEmpty()) {
            fs.syncDirectory(dir);
        }
        for (int i = 0; i < written.size(); i++) {
            tables.adopt(finished.get(i).number, written.get(i));
        }
        written.clear();
        return finished;
    }

    /** Table numbers this output created (to release from pending outputs once installed or abandoned). */
    @Override
    public List<Long> created() {
        return created;
    }

    /** Deletes everything written after a failure. */
    @Override
    public void abandon() {
        if (builder != null) {
            builder.abandon();
            builder = null;
        }
        if (finishing != null) {
            // Deleted only once the finisher is done with them.
            finishing.awaitQuietly();
        }
        for (long n : created) {
            if (tables != null) {
                tables.discard(n);
            }
            try {
                fs.delete(FileNames.table(dir, n));
            } catch (IOException ignored) {
                // left behind as an orphan; the next open's sweep removes it
            }
        }
    }
}
