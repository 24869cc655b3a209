package io.bellows.engine.db;

import io.bellows.engine.compaction.TableSource;
import io.bellows.engine.io.FileSystem;
import io.bellows.engine.io.ReadableFile;
import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.Lookup;
import io.bellows.engine.metrics.EngineCounters;
import io.bellows.engine.table.BlockCache;
import io.bellows.engine.table.TableReader;
import io.bellows.engine.version.FileMeta;
import io.bellows.engine.version.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open table readers by file number. A reader is opened on first use (reading its footer, index and
 * filter once) and kept until its file is deleted, which happens only when no live version holds it.
 */
final class TableCache implements TableSource, AutoCloseable {
    private final Path dir;
    private final FileSystem fs;
    private final BlockCache blockCache;
    private final EngineCounters counters;
    private final ConcurrentHashMap<Long, TableReader> readers = new ConcurrentHashMap<>();

    TableCache(Path dir, FileSystem fs, BlockCache blockCache, EngineCounters counters) {
        this.dir = dir;
        this.fs = fs;
        this.blockCache = blockCache;
        this.counters = counters;
    }

    TableReader reader(long number) throws IOException {
        TableReader r = readers.get(number);
        if (r != null) {
            return r;
        }
        try {
            return readers.computeIfAbsent(number, n -> {
                Path path = FileNames.table(dir, n);
                ReadableFile file = null;
                try {
                    file = fs.openTable(path);
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

    @Override
    public InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException {
        return reader(file.number).iterator(fillCache);
    }

    @Override
    public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        return reader(file.number).get(key, seq, fillCache, out);
    }

    /** Closes the reader of a deleted table. */
    void evict(long number) {
        TableReader r = readers.remove(number);
        if (r != null) {
            r.close();
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
