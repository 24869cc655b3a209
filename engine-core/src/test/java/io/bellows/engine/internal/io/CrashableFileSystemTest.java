package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CrashableFileSystemTest {
    private static final Path DIR = Path.of("/db");
    private static final Path LOG = DIR.resolve("000001.log");

    private final CrashableFileSystem fs = new CrashableFileSystem();

    private static byte[] bytes(int from, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }

    @Test
    void syncedBytesSurviveAndUnsyncedAreLost() throws IOException {
        WritableFile w = fs.createLog(LOG);
        w.append(bytes(0, 100));
        w.sync();
        fs.syncDirectory(DIR);
        w.append(bytes(100, 50));
        w.flush();
        assertEquals(150, fs.size(LOG));

        CrashableFileSystem after = fs.crash();
        assertArrayEquals(bytes(0, 100), after.readAll(LOG));
        assertEquals(150, fs.size(LOG), "the crashed instance is left untouched");
        assertEquals("memory", after.tableIoMode());
    }

    @Test
    void unsyncedDirectoryEntryIsLost() throws IOException {
        WritableFile w = fs.createTable(DIR.resolve("000002.sst"));
        w.append(bytes(0, 10));
        w.sync();
        w.close();
        assertTrue(fs.exists(DIR.resolve("000002.sst")));
        CrashableFileSystem after = fs.crash();
        assertFalse(after.exists(DIR.resolve("000002.sst")));
        assertEquals(List.of(), after.list(DIR));

        fs.syncDirectory(DIR);
        assertArrayEquals(bytes(0, 10), fs.crash().readAll(DIR.resolve("000002.sst")));
    }

    @Test
    void renameAndDeleteAreDurableOnlyAfterDirectorySync() throws IOException {
        Path current = DIR.resolve("CURRENT");
        Path tmp = DIR.resolve("CURRENT.tmp");
        write(current, bytes(1, 3));
        fs.syncDirectory(DIR);
        write(tmp, bytes(7, 4));
        fs.rename(tmp, current);
        assertArrayEquals(bytes(7, 4), fs.readAll(current));
        assertFalse(fs.exists(tmp));

        CrashableFileSystem before = fs.crash();
        assertArrayEquals(bytes(1, 3), before.readAll(current));
        assertFalse(before.exists(tmp));

        fs.syncDirectory(DIR);
        CrashableFileSystem after = fs.crash();
        assertArrayEquals(bytes(7, 4), after.readAll(current));
        assertEquals(List.of("CURRENT"), after.list(DIR));

        fs.delete(current);
        assertArrayEquals(bytes(7, 4), fs.crash().readAll(current), "a delete is undone by a crash until synced");
        fs.syncDirectory(DIR);
        assertFalse(fs.crash().exists(current));
    }

    @Test
    void directorySyncCoversOnlyThatDirectory() throws IOException {
        write(DIR.resolve("a"), bytes(0, 1));
        write(Path.of("/other/b"), bytes(0, 1));
        fs.syncDirectory(DIR);
        CrashableFileSystem after = fs.crash();
        assertTrue(after.exists(DIR.resolve("a")));
        assertFalse(after.exists(Path.of("/other/b")));
    }

    @Test
    void fileKeepsWritingToItsInodeAcrossRename() throws IOException {
        WritableFile w = fs.createLog(DIR.resolve("x.tmp"));
        w.append(bytes(0, 5));
        fs.rename(DIR.resolve("x.tmp"), DIR.resolve("x"));
        w.append(bytes(5, 5));
        w.sync();
        fs.syncDirectory(DIR);
        assertArrayEquals(bytes(0, 10), fs.crash().readAll(DIR.resolve("x")));
    }

    @Test
    void crashWithSeedKeepsAPrefixOfTheUnsyncedTail() throws IOException {
        WritableFile w = fs.createLog(LOG);
        w.append(bytes(0, 10));
        w.sync();
        fs.syncDirectory(DIR);
        w.append(bytes(10, 1000));
        byte[] whole = bytes(0, 1010);
        Set<Integer> lengths = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            byte[] got = fs.crash(seed).readAll(LOG);
            assertTrue(got.length >= 10 && got.length <= 1010, "length " + got.length);
            assertArrayEquals(Arrays.copyOf(whole, got.length), got);
            assertArrayEquals(got, fs.crash(seed).readAll(LOG), "same seed, same crash");
            lengths.add(got.length);
        }
        assertTrue(lengths.size() > 1, "torn lengths should vary with the seed: " + lengths);
    }

    @Test
    void createTruncatesAnExistingFile() throws IOException {
        write(LOG, bytes(0, 100));
        fs.syncDirectory(DIR);
        WritableFile w = fs.createLog(LOG);
        assertEquals(0, fs.size(LOG));
        w.append(bytes(50, 3));
        w.close();
        assertArrayEquals(bytes(50, 3), fs.readAll(LOG));
        assertThrows(IOException.class, () -> w.append(bytes(0, 1)));
        assertThrows(IOException.class, w::sync);
    }

    @Test
    void tableReadsAndEof() throws IOException {
        Path sst = DIR.resolve("000003.sst");
        write(sst, bytes(0, 300));
        try (ReadableFile r = fs.openTable(sst)) {
            assertEquals(300, r.size());
            assertArrayEquals(bytes(290, 10), r.read(290, 10));
            assertThrows(EOFException.class, () -> r.read(290, 11));
        }
        assertThrows(NoSuchFileException.class, () -> fs.openTable(DIR.resolve("missing.sst")));
        assertThrows(NoSuchFileException.class, () -> fs.readAll(DIR.resolve("missing")));
    }

    @Test
    void listAndDirectories() throws IOException {
        fs.createDirectories(DIR.resolve("sub"));
        write(DIR.resolve("f"), bytes(0, 1));
        assertEquals(Set.of("sub", "f"), new HashSet<>(fs.list(DIR)));
        assertTrue(fs.exists(Path.of("/db/./sub/../sub")));
        assertThrows(NoSuchFileException.class, () -> fs.list(Path.of("/nowhere")));
        assertTrue(fs.crash().exists(DIR.resolve("sub")));
    }

    @Test
    void lockIsExclusiveAndNotCarriedOverACrash() throws IOException {
        Path lockFile = DIR.resolve("LOCK");
        Closeable lock = fs.lock(lockFile);
        IOException e = assertThrows(IOException.class, () -> fs.lock(lockFile));
        assertTrue(e.getMessage().contains("already in use by another Bellows engine"), e.getMessage());
        fs.syncDirectory(DIR);
        fs.crash().lock(lockFile).close();
        lock.close();
        fs.lock(lockFile).close();
    }

    @Test
    void processCrashKeepsEveryWrittenByteAndLaterMachineCrashKeepsTheSyncedOnes() throws IOException {
        Path lockFile = DIR.resolve("LOCK");
        fs.lock(lockFile);
        WritableFile w = fs.createLog(LOG);
        w.append(bytes(0, 100));
        w.sync();
        fs.syncDirectory(DIR);
        w.append(bytes(100, 50));
        WritableFile unsyncedEntry = fs.createTable(DIR.resolve("000002.sst"));
        unsyncedEntry.append(bytes(0, 7));

        CrashableFileSystem after = fs.processCrash();
        w.append(bytes(150, 10));
        assertArrayEquals(bytes(0, 150), after.readAll(LOG), "unsynced bytes survive; later writes do not reach the copy");
        assertArrayEquals(bytes(0, 7), after.readAll(DIR.resolve("000002.sst")));
        after.lock(lockFile).close();
        CrashableFileSystem machine = after.crash();
        assertArrayEquals(bytes(0, 100), machine.readAll(LOG));
        assertFalse(machine.exists(DIR.resolve("000002.sst")));
    }

    @Test
    void replaceWithTakesTheImageState() throws IOException {
        write(LOG, bytes(0, 10));
        fs.syncDirectory(DIR);
        CrashableFileSystem image = fs.crash();
        write(DIR.resolve("later"), bytes(0, 3));
        fs.lock(DIR.resolve("LOCK"));
        fs.replaceWith(image);
        assertEquals(List.of("000001.log"), fs.list(DIR));
        assertArrayEquals(bytes(0, 10), fs.readAll(LOG));
        fs.lock(DIR.resolve("LOCK")).close();
        write(LOG, bytes(5, 2));
        assertArrayEquals(bytes(0, 10), image.readAll(LOG), "the image is copied, not shared");
    }

    private void write(Path path, byte[] data) throws IOException {
        try (WritableFile w = fs.createLog(path)) {
            w.append(data);
            w.sync();
        }
    }
}
