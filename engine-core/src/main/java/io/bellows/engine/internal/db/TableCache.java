package io.bellows.engine.internal.db;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.table.WrittenTable;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open table readers by file number. The reader of a table this engine writes is built by its writer
 * ({@link #adopt}); any other (a table of an earlier run) is opened on first use, reading its footer,
 * index and filter once, or during the engine's open with {@code preloadTables} ({@link #preload}).
 * Readers are kept until their file is deleted, which happens only when no live version holds it.
 * The file header's kind picks the format's opener from the {@link TableFormats} registry.
 */
final class TableCache implements TableSource, AutoCloseable {
    private final Path dir;
    private final FileSystem fs;
    private final TableFormats formats;
    private final ConcurrentHashMap<Long, OpenTable> readers = new ConcurrentHashMap<>();

    TableCache(Path dir, FileSystem fs, TableFormats formats) {
        this.dir = dir;
        this.fs = fs;
        this.formats = formats;
    }

    /** The reader of table {@code number} if it is open, else null (nothing is opened). */
    OpenTable ifOpen(long number) {
        return readers.get(number);
    }

    private OpenTable open(long number) throws IOException {
        OpenTable r = readers.get(number);
        if (r != null) {
            return r;
        }
        try {
            return readers.computeIfAbsent(number, n -> {
                Path path = FileNames.table(dir, n);
                ReadableFile file = null;
                try {
                    file = fs.openTable(path);
                    return formats.open(file, path, n);
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

    /** The reader of {@code file}: the one kept in its metadata, else opened (or found) and kept there. */
    private OpenTable open(FileMeta file) throws IOException {
        Object kept = file.cachedReader();
        if (kept != null) {
            return (OpenTable) kept;
        }
        OpenTable r = open(file.number);
        file.cacheReader(r);
        return r;
    }

    /**
     * Opens the reader of every table of {@code v} now, on {@code threads} threads, so that no read
     * pays a table's open (RocksDB's {@code max_open_files=-1}, on {@code max_file_opening_threads}).
     * A table that fails to open is left to open on its first read, which reports the failure where it
     * matters, as a table opened lazily would.
     */
    void preload(Version v, int threads) {
        List<FileMeta> files = new ArrayList<>(v.totalFiles());
        for (int level = 0; level < v.numLevels(); level++) {
            files.addAll(v.files(level));
        }
        if (threads <= 1 || files.size() < 2) {
            for (FileMeta f : files) {
                tryOpen(f);
            }
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Thread[] workers = new Thread[Math.min(threads, files.size())];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Thread(() -> {
                for (int n; (n = next.getAndIncrement()) < files.size(); ) {
                    tryOpen(files.get(n));
                }
            }, "bellows-table-open-" + (i + 1));
            workers[i].setDaemon(true);
            workers[i].start();
        }
        boolean interrupted = false;
        for (Thread w : workers) {
            while (true) {
                try {
                    w.join();
                    break;
                } catch (InterruptedException e) {
                    // The open goes on (its readers are shared with the workers); the caller sees the flag.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void tryOpen(FileMeta f) {
        try {
            open(f);
        } catch (IOException | RuntimeException e) {
            // Opened again, and reported, by the table's first read.
        }
    }

    @Override
    public <T extends OpenTable> T reader(FileMeta file, Class<T> format) throws IOException {
        OpenTable r = open(file);
        if (format.isInstance(r)) {
            return format.cast(r);
        }
        throw new CorruptionException(FileNames.table(dir, file.number), 8, "a table read by "
                + r.getClass().getSimpleName() + " where one read by " + format.getSimpleName() + " was expected");
    }

    @Override
    public InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException {
        return open(file).iterator(fillCache);
    }

    @Override
    public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        return open(file).get(key, seq, fillCache, out);
    }

    /**
     * Keeps the reader of a table just written. Opening its file can fail like any open; the table is
     * then opened on its first read instead, which reports the failure where it matters.
     */
    @Override
    public void adopt(long number, WrittenTable written) {
        Path path = FileNames.table(dir, number);
        ReadableFile file;
        try {
            file = fs.openTable(path);
        } catch (IOException e) {
            return;
        }
        OpenTable r;
        try {
            r = formats.openWritten(written, file, path, number);
        } catch (IOException | RuntimeException e) {
            closeQuietly(file);
            return;
        }
        if (readers.putIfAbsent(number, r) != null) {
            r.close();
        }
    }

    @Override
    public void discard(long number) {
        evict(number);
    }

    /** Closes the reader of a deleted table. */
    void evict(long number) {
        OpenTable r = readers.remove(number);
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
