package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.TestSeeds;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DefaultFileSystemTest {
    @TempDir
    Path dir;

    private DefaultFileSystem open(boolean direct) throws IOException {
        DefaultFileSystem fs = DefaultFileSystem.forDirectory(dir.resolve("db"), direct);
        if (direct) {
            assumeTrue(fs.tableIoMode().equals("direct"), "direct I/O unsupported under " + dir);
        }
        return fs;
    }

    @Test
    void bufferedWhenNotRequested() throws IOException {
        assertEquals("buffered", DefaultFileSystem.forDirectory(dir.resolve("a/b"), false).tableIoMode());
        assertTrue(Files.isDirectory(dir.resolve("a/b")));
    }

    @Test
    void probeLeavesNoFileBehind() throws IOException {
        DefaultFileSystem fs = DefaultFileSystem.forDirectory(dir.resolve("db"), true);
        System.out.println("table I/O under " + dir + ": " + fs.tableIoMode());
        assertEquals(List.of(), fs.list(dir.resolve("db")));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void tableRoundTripWithUnalignedAppendsAndReads(boolean direct) throws IOException {
        DefaultFileSystem fs = open(direct);
        Random rnd = new Random(TestSeeds.seed("DefaultFileSystemTest.tableRoundTrip[direct=" + direct + "]"));
        int[] sizes = {0, 1, 7, 511, 512, 4095, 4096, 4097, 8191, 65536, 65537, 262143, 262144, 262145, 700001};
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Path file = dir.resolve("db/000001.sst");
        try (WritableFile w = fs.createTable(file)) {
            for (int i = 0; i < 60; i++) {
                int n = i < sizes.length ? sizes[i] : rnd.nextInt(20_000);
                byte[] b = new byte[n + 3];
                rnd.nextBytes(b);
                w.append(b, 3, n);
                expected.write(b, 3, n);
                assertEquals(expected.size(), w.size());
            }
        }
        byte[] want = expected.toByteArray();
        assertArrayEquals(want, Files.readAllBytes(file));
        try (ReadableFile r = fs.openTable(file)) {
            assertEquals(want.length, r.size());
            for (int i = 0; i < 500; i++) {
                int pos = rnd.nextInt(want.length);
                int len = rnd.nextInt(Math.min(want.length - pos, i % 10 == 0 ? 2_000_000 : 9000) + 1);
                byte[] got = new byte[len + 2];
                r.read(pos, got, 1, len);
                for (int j = 0; j < len; j++) {
                    if (got[1 + j] != want[pos + j]) {
                        throw new AssertionError("byte " + (pos + j) + " differs after read(" + pos + ", " + len + ")");
                    }
                }
            }
            assertArrayEquals(want, r.read(0, want.length));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void syncThenAppendThenCloseGivesExactBytes(boolean direct) throws IOException {
        DefaultFileSystem fs = open(direct);
        Random rnd = new Random(TestSeeds.seed("DefaultFileSystemTest.syncThenAppendThenClose[direct=" + direct + "]"));
        Path file = dir.resolve("db/000002.sst");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (WritableFile w = fs.createTable(file)) {
            for (int n : new int[] {100, 5000, 3, 4096 - 5103 % 4096, 1, 300_000, 0, 17}) {
                byte[] b = new byte[n];
                rnd.nextBytes(b);
                w.append(b);
                expected.write(b, 0, n);
                if (n % 2 == 0) {
                    w.sync();
                } else {
                    w.flush();
                }
                assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file), "after " + expected.size());
            }
            w.append(new byte[] {9, 8, 7});
            expected.write(new byte[] {9, 8, 7}, 0, 3);
            w.sync();
            w.sync();
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file));
        assertEquals(expected.size(), fs.size(file));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void concurrentReadersSeeTheirOwnBytes(boolean direct) throws Exception {
        DefaultFileSystem fs = open(direct);
        long seed = TestSeeds.seed("DefaultFileSystemTest.concurrentReaders[direct=" + direct + "]");
        byte[] data = new byte[3 << 20];
        new Random(seed).nextBytes(data);
        Path file = dir.resolve("db/000006.sst");
        try (WritableFile w = fs.createTable(file)) {
            w.append(data);
        }
        try (ReadableFile r = fs.openTable(file)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    Random rnd = new Random(seed + t);
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 300; i++) {
                            int pos = rnd.nextInt(data.length);
                            int len = rnd.nextInt(Math.min(data.length - pos, 20_000) + 1);
                            assertArrayEquals(Arrays.copyOfRange(data, pos, pos + len), r.read(pos, len));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readPastEndThrowsEof(boolean direct) throws IOException {
        DefaultFileSystem fs = open(direct);
        Path file = dir.resolve("db/000003.sst");
        byte[] data = new byte[5000];
        new Random(3).nextBytes(data);
        try (WritableFile w = fs.createTable(file)) {
            w.append(data);
        }
        try (ReadableFile r = fs.openTable(file)) {
            assertArrayEquals(Arrays.copyOfRange(data, 4990, 5000), r.read(4990, 10));
            assertEquals(0, r.read(5000, 0).length);
            assertThrows(EOFException.class, () -> r.read(4990, 11));
            assertThrows(EOFException.class, () -> r.read(5000, 1));
            assertThrows(EOFException.class, () -> r.read(1 << 20, 1));
            assertThrows(EOFException.class, () -> r.read(0, 8193));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void createTableTruncatesAndAppendAfterCloseFails(boolean direct) throws IOException {
        DefaultFileSystem fs = open(direct);
        Path file = dir.resolve("db/000004.sst");
        try (WritableFile w = fs.createTable(file)) {
            w.append(new byte[10_000]);
        }
        WritableFile w = fs.createTable(file);
        w.append(new byte[] {1, 2, 3});
        w.close();
        w.close();
        assertArrayEquals(new byte[] {1, 2, 3}, fs.readAll(file));
        assertThrows(IOException.class, () -> w.append(new byte[1]));
        assertThrows(IOException.class, w::sync);
    }

    @Test
    void logFlushHandsBytesToTheOs() throws IOException {
        DefaultFileSystem fs = open(false);
        Path file = dir.resolve("db/000005.log");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Random rnd = new Random(TestSeeds.seed("DefaultFileSystemTest.logFlushHandsBytesToTheOs"));
        try (WritableFile w = fs.createLog(file)) {
            for (int i = 0; i < 200; i++) {
                byte[] b = new byte[i == 100 ? 200_000 : rnd.nextInt(1000)];
                rnd.nextBytes(b);
                w.append(b);
                expected.write(b, 0, b.length);
                if (i % 17 == 0) {
                    w.flush();
                    assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file));
                }
                if (i % 50 == 0) {
                    w.sync();
                    assertEquals(expected.size(), Files.size(file));
                }
            }
        }
        assertArrayEquals(expected.toByteArray(), fs.readAll(file));
    }

    @Test
    void renameReplacesTargetAtomically() throws IOException {
        DefaultFileSystem fs = open(false);
        Path db = dir.resolve("db");
        Path current = db.resolve("CURRENT");
        Path tmp = db.resolve("CURRENT.tmp");
        Files.write(current, new byte[] {1});
        try (WritableFile w = fs.createLog(tmp)) {
            w.append(new byte[] {2, 2});
            w.sync();
        }
        fs.rename(tmp, current);
        fs.syncDirectory(db);
        assertFalse(fs.exists(tmp));
        assertArrayEquals(new byte[] {2, 2}, fs.readAll(current));
        assertEquals(List.of("CURRENT"), fs.list(db));
        fs.delete(current);
        fs.delete(current);
        assertFalse(fs.exists(current));
        assertThrows(IOException.class, () -> fs.rename(tmp, current));
    }

    /**
     * Found by the fault-point test: Files.exists answers false when a file's existence cannot be told, so
     * an open whose check of CURRENT failed created a new store over the old one and swept its tables.
     */
    @Test
    void existsThatCannotBeToldThrowsInsteadOfAnsweringFalse() throws IOException {
        DefaultFileSystem fs = open(false);
        Path db = dir.resolve("db");
        Files.write(db.resolve("CURRENT"), new byte[] {1});
        assertTrue(fs.exists(db.resolve("CURRENT")));
        assertTrue(fs.exists(db));
        assertFalse(fs.exists(db.resolve("MANIFEST-000001")));
        // stat fails with ENOTDIR (a path under a regular file) and ENAMETOOLONG: existence unknown, not absent.
        assertFalse(Files.exists(db.resolve("CURRENT/x")), "the JDK's answer this replaces");
        assertThrows(EngineIOException.class, () -> fs.exists(db.resolve("CURRENT/x")));
        assertThrows(EngineIOException.class, () -> fs.exists(db.resolve("n".repeat(300))));
    }

    @Test
    void lockTwiceInProcessFailsUntilReleased() throws IOException {
        DefaultFileSystem fs = open(false);
        DefaultFileSystem other = DefaultFileSystem.forDirectory(dir.resolve("db"), false);
        Path lockFile = dir.resolve("db/LOCK");
        Closeable lock = fs.lock(lockFile);
        IOException e = assertThrows(IOException.class, () -> other.lock(dir.resolve("db/../db/LOCK")));
        assertTrue(e.getMessage().contains("directory " + dir.resolve("db") + " is already in use by another Bellows"
                + " engine (LOCK held"), e.getMessage());
        lock.close();
        lock.close();
        other.lock(lockFile).close();
        fs.lock(lockFile).close();
    }

    @Test
    void lockHeldByAnotherProcessFails() throws Exception {
        DefaultFileSystem fs = open(false);
        Path lockFile = dir.resolve("db/LOCK");
        String cp = Path.of(DefaultFileSystem.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(LockHolder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", cp, LockHolder.class.getName(), lockFile.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertEquals(LockHolder.READY, line);
            IOException e = assertThrows(IOException.class, () -> fs.lock(lockFile));
            assertTrue(e.getMessage().contains("is already in use by another Bellows engine"), e.getMessage());
            assertTrue(e.getMessage().contains("another process"), e.getMessage());
        } finally {
            child.getOutputStream().close();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "lock holder did not exit");
        }
        assertEquals(0, child.exitValue());
        fs.lock(lockFile).close();
    }
}
