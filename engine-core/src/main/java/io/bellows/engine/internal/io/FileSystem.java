package io.bellows.engine.internal.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file layer every Bellows file goes through. One interface so tests can substitute an
 * in-memory crashable file system or one that injects faults (EIO, ENOSPC, torn writes); see
 * LevelDB's Env and Pebble's vfs for the same seam.
 *
 * <p>Two kinds of writable file exist: {@link #createTable} for immutable table files, written once
 * sequentially and read at random (direct I/O where supported), and {@link #createLog} for
 * append-only logs (WAL, manifest), always buffered through the OS because their records are small
 * and synced often.
 *
 * <p>Thread safety: implementations are safe for concurrent use.
 */
public interface FileSystem {
    /** Creates (truncating) a table file for sequential writing. */
    WritableFile createTable(Path path) throws IOException;

    /** Creates (truncating) an append-only log file. */
    WritableFile createLog(Path path) throws IOException;

    /** Opens a table file for positional reads. */
    ReadableFile openTable(Path path) throws IOException;

    /**
     * Opens a log for positional reads, through the OS's cache (a log just written is read back while its
     * pages are still cached). Default: {@link #openTable}.
     */
    default ReadableFile openLog(Path path) throws IOException {
        return openTable(path);
    }

    /** Reads a whole (log, CURRENT, manifest) file. */
    byte[] readAll(Path path) throws IOException;

    /**
     * Whether a file or directory exists. Throws {@link io.bellows.engine.EngineIOException} when that
     * cannot be told (an I/O or permission error), never answers false for it: a store whose CURRENT
     * seemed absent would be created anew over its own files.
     */
    boolean exists(Path path);

    long size(Path path) throws IOException;

    /** Names of the entries of a directory (file names only, unsorted). */
    List<String> list(Path dir) throws IOException;

    void createDirectories(Path dir) throws IOException;

    /** Deletes a file; no error if it is absent. */
    void delete(Path path) throws IOException;

    /** Atomically replaces {@code target} with {@code source}. */
    void rename(Path source, Path target) throws IOException;

    /**
     * Makes {@code target} a durable copy of the immutable file {@code source}: a hard link where the file
     * system allows (then no byte is copied), else a copy, synced. Default: a copy through this interface.
     */
    default void linkOrCopy(Path source, Path target) throws IOException {
        try (ReadableFile in = openTable(source); WritableFile out = createLog(target)) {
            long size = in.size();
            for (long pos = 0; pos < size; ) {
                int n = (int) Math.min(1 << 20, size - pos);
                byte[] b = in.read(pos, n);
                out.append(b, 0, b.length);
                pos += n;
            }
            out.sync();
        }
    }

    /** Makes the directory's entries (creations, renames, deletions) durable. */
    void syncDirectory(Path dir) throws IOException;

    /**
     * Takes the exclusive lock of a directory's LOCK file, failing with an {@link IOException} that
     * says the directory is in use when another process or another open engine in this process holds
     * it.
     */
    Closeable lock(Path lockFile) throws IOException;

    /** How table files are read and written: "direct" or "buffered". */
    String tableIoMode();
}
