package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void temporaryDirectoryIsDeletedOnClose() throws IOException {
        Path path;
        try (BenchDirectory dir = BenchDirectory.prepare(null, false)) {
            path = dir.path();
            assertTrue(dir.temporary());
            Files.createDirectories(path.resolve("sub"));
            Files.writeString(path.resolve("sub/f"), "x");
        }
        assertFalse(Files.exists(path));
    }

    @Test
    void givenDirectoryIsCreatedWipedOnRequestAndKept() throws IOException {
        Path db = tmp.resolve("a/b");
        try (BenchDirectory dir = BenchDirectory.prepare(db, false)) {
            assertFalse(dir.temporary());
            Files.writeString(db.resolve("f"), "x");
            Files.createDirectories(db.resolve("d"));
            Files.writeString(db.resolve("d/g"), "y");
            dir.wipe();
            try (var entries = Files.list(db)) {
                assertEquals(0, entries.count());
            }
            Files.writeString(db.resolve("kept"), "z");
        }
        assertTrue(Files.exists(db.resolve("kept")));
    }

    @Test
    void nonEmptyDirectoryIsRefusedUnlessReused() throws IOException {
        Files.writeString(tmp.resolve("CURRENT"), "x");
        FlagException e = assertThrows(FlagException.class, () -> BenchDirectory.prepare(tmp, false));
        assertTrue(e.getMessage().contains("is not empty"), e.getMessage());
        try (BenchDirectory dir = BenchDirectory.prepare(tmp, true)) {
            assertEquals(tmp, dir.path());
        }
        assertThrows(FlagException.class, () -> BenchDirectory.prepare(tmp.resolve("missing"), true));
        assertThrows(FlagException.class, () -> BenchDirectory.prepare(tmp.resolve("CURRENT"), false));
    }
}
