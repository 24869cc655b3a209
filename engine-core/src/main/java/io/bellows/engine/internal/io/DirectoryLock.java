package io.bellows.engine.internal.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * The exclusive lock on a directory's LOCK file, held for as long as one engine has the directory
 * open.
 *
 * <p>A {@link FileLock} only excludes other processes: the JVM holds OS locks per process, and within
 * one it answers a second lock with {@link OverlappingFileLockException}. Worse, on POSIX closing
 * <em>any</em> descriptor of a file drops every lock the process holds on it, so merely opening the
 * LOCK file to try a second time would release the first engine's lock when it is closed. Hence the
 * process-wide set of held paths, consulted before the file is opened.
 *
 * <p>Thread safety: {@link #HELD} and every acquire and release are guarded by the set's monitor.
 */
final class DirectoryLock implements Closeable {
    private static final Set<Path> HELD = new HashSet<>();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private DirectoryLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    static DirectoryLock acquire(Path lockFile) throws IOException {
        synchronized (HELD) {
            Path key = canonical(lockFile);
            if (HELD.contains(key)) {
                throw inUse(lockFile, "by this process");
            }
            FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                channel.close();
                throw inUse(lockFile, "by another process");
            }
            HELD.add(key);
            return new DirectoryLock(key, channel, lock);
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (HELD) {
            if (released) {
                return;
            }
            released = true;
            HELD.remove(key);
            try (FileChannel ch = channel) {
                lock.release();
            }
        }
    }

    /** The lock file's real path, resolved without opening it (see the class comment). */
    private static Path canonical(Path lockFile) throws IOException {
        Path abs = lockFile.toAbsolutePath().normalize();
        if (Files.exists(abs)) {
            return abs.toRealPath();
        }
        Path parent = abs.getParent();
        return parent == null ? abs : parent.toRealPath().resolve(abs.getFileName());
    }

    private static IOException inUse(Path lockFile, String holder) {
        Path abs = lockFile.toAbsolutePath().normalize();
        return new IOException("directory " + abs.getParent() + " is already in use by another Bellows engine ("
                + abs.getFileName() + " held " + holder + ")");
    }
}
