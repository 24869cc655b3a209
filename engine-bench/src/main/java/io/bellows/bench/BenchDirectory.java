package io.bellows.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The store directory of a run. Only a directory this run created or found empty is ever emptied
 * (before each fill after the first), so a mistyped --db cannot destroy anything; a temporary one is
 * deleted on close.
 */
final class BenchDirectory implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private BenchDirectory(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /**
     * A fresh temporary directory when {@code db} is null; else {@code db}, which must hold a store if
     * {@code useExisting} and must be absent or empty otherwise.
     */
    static BenchDirectory prepare(Path db, boolean useExisting) {
        try {
            if (db == null) {
                return new BenchDirectory(Files.createTempDirectory("bellows-bench-"), true);
            }
            if (useExisting) {
                if (!Files.isDirectory(db)) {
                    throw new FlagException("--use_existing_db needs an existing store, but --db=" + db
                            + " is not a directory");
                }
            } else if (Files.exists(db)) {
                if (!Files.isDirectory(db)) {
                    throw new FlagException("--db=" + db + " is not a directory");
                }
                if (!isEmpty(db)) {
                    throw new FlagException("--db=" + db + " is not empty; remove it, or pass --use_existing_db"
                            + " to run on the store in it");
                }
            } else {
                Files.createDirectories(db);
            }
            return new BenchDirectory(db, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the store directory " + db, e);
        }
    }

    Path path() {
        return path;
    }

    boolean temporary() {
        return temporary;
    }

    /** Deletes everything inside the directory; REQUIRES: no engine has it open. */
    void wipe() {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
            for (Path entry : entries) {
                deleteTree(entry);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty the store directory " + path, e);
        }
    }

    @Override
    public void close() {
        if (temporary) {
            try {
                deleteTree(path);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete the temporary store directory " + path, e);
            }
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(root);
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
