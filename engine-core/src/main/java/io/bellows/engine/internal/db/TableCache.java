package io.bellows.engine.internal.db;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.TableReader;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open table readers by file number. A reader is opened on first use (reading its footer, index and
 * filter once) and kept until its file is deleted, which happens only when no live version holds it.
 * The file header's kind says which format to open: an SSTable or an HTable (LSM_TRIE).
 */
final class TableCache implements TableSource, AutoCloseable {
    private final Path dir;
    private final FileSystem fs;
    private final BlockCache blockCache;
    private final FilterPageCache filterCache;
    private final EngineCounters counters;
    /** TableReader or HTableReader. */
    private final ConcurrentHashMap<Long, AutoCloseable> readers = new ConcurrentHashMap<>();

    TableCache(Path dir, FileSystem fs, BlockCache blockCache, EngineCounters counters, long filterCacheBytes) {
        this.dir = dir;
        this.fs = fs;
        this.blockCache = blockCache;
        this.filterCache = new FilterPageCache(filterCacheBytes);
        this.counters = counters;
    }

    private AutoCloseable open(long number) throws IOException {
        AutoCloseable r = readers.get(number);
        if (r != null) {
            return r;
        }
        try {
            return readers.computeIfAbsent(number, n -> {
                Path path = FileNames.table(dir, n);
                ReadableFile file = null;
                try {
                    file = fs.openTable(path);
                    if (kind(file, path) == FileHeader.KIND_HTABLE) {
                        return HTableReader.open(file, path, n, filterCache, counters);
                    }
                    return TableReader.open(file, path, n, blockCache, counters);
                } catch (IOException e) {
                    closeQuietly(file);
                    throw new UncheckedIOException(e);
                } catch (RuntimeException e) {
                    closeQuietly(file);
                    throw e;
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The kind field of the file header; the reader of that kind verifies the rest. */
    private static int kind(ReadableFile file, Path path) throws IOException {
        if (file.size() < FileHeader.LENGTH) {
            throw new CorruptionException(path, 0, "file too short for a header (" + file.size() + " bytes)");
        }
        return Coding.getShort(file.read(0, FileHeader.LENGTH), 8);
    }

    TableReader reader(long number) throws IOException {
        AutoCloseable r = open(number);
        if (r instanceof TableReader) {
            return (TableReader) r;
        }
        throw new CorruptionException(FileNames.table(dir, number), 8, "an HTable where an SSTable was expected");
    }

    @Override
    public HTableReader htable(FileMeta file) throws IOException {
        AutoCloseable r = open(file.number);
        if (r instanceof HTableReader) {
            return (HTableReader) r;
        }
        throw new CorruptionException(FileNames.table(dir, file.number), 8, "an SSTable where an HTable was expected");
    }

    @Override
    public InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException {
        AutoCloseable r = open(file.number);
        if (r instanceof HTableReader) {
            return ((HTableReader) r).iterator();
        }
        return ((TableReader) r).iterator(fillCache);
    }

    @Override
    public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        AutoCloseable r = open(file.number);
        if (r instanceof HTableReader) {
            return ((HTableReader) r).get(key, seq, out);
        }
        return ((TableReader) r).get(key, seq, fillCache, out);
    }

    /** Closes the reader of a deleted table. */
    void evict(long number) {
        AutoCloseable r = readers.remove(number);
        if (r instanceof HTableReader) {
            ((HTableReader) r).close();
        } else if (r != null) {
            ((TableReader) r).close();
        }
    }

    int openReaders() {
        return readers.size();
    }

    @Override
    public void close() {
        for (Long n : readers.keySet()) {
            evict(n);
        }
    }

    private static void closeQuietly(ReadableFile f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }
}
