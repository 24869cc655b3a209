package io.bellows.engine.internal.io;

import java.io.Closeable;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link DefaultFileSystemTest}: takes the lock named by its argument, prints
 * {@link #READY}, and holds the lock until its stdin closes.
 */
final class LockHolder {
    static final String READY = "LOCKED";

    private LockHolder() {}

    public static void main(String[] args) throws Exception {
        Path lockFile = Path.of(args[0]);
        Closeable lock = DefaultFileSystem.forDirectory(lockFile.getParent(), false).lock(lockFile);
        try {
            System.out.println(READY);
            System.out.flush();
            while (System.in.read() >= 0) {
                // Wait for the parent to close our stdin.
            }
        } finally {
            lock.close();
        }
    }
}
