package io.bellows.cli;

import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.FileNames;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A closed store's directory, held with the engine's own directory lock for as long as a command reads
 * it, so that no engine opens it meanwhile and a store an engine holds open is refused.
 */
final class StoreDir implements Closeable {
    final Path dir;
    final FileSystem fs;
    private final Closeable lock;

    private StoreDir(Path dir, FileSystem fs, Closeable lock) {
        this.dir = dir;
        this.fs = fs;
        this.lock = lock;
    }

    /** Locks {@code dir}; refuses a directory that holds no store rather than creating anything there. */
    static StoreDir lock(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        if (!Files.exists(dir.resolve(FileNames.CURRENT))) {
            throw new IllegalArgumentException(dir + " holds no Bellows store (no " + FileNames.CURRENT + " file)");
        }
        FileSystem fs = DefaultFileSystem.forDirectory(dir, false);
        return new StoreDir(dir, fs, fs.lock(dir.resolve(FileNames.LOCK)));
    }

    /** A file system for reading one file of any directory, without a lock. */
    static FileSystem files(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is not a file");
        }
        return DefaultFileSystem.forDirectory(file.toAbsolutePath().getParent(), false);
    }

    @Override
    public void close() throws IOException {
        lock.close();
    }
}
