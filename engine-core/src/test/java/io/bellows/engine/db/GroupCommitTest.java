package io.bellows.engine.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.io.DefaultFileSystem;
import io.bellows.engine.io.FileSystem;
import io.bellows.engine.io.ReadableFile;
import io.bellows.engine.io.WritableFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent SYNC writers share WAL forces: fewer forces than writes, every write still durable. */
class GroupCommitTest {
    @TempDir
    Path dir;

    @Test
    void concurrentSyncWritersShareForces() throws Exception {
        AtomicLong logSyncs = new AtomicLong();
        FileSystem fs = new CountingFileSystem(DefaultFileSystem.forDirectory(dir, true), logSyncs);
        int threads = 8;
        int perThread = 150;
        EngineImpl db = EngineImpl.open(dir, EngineOptions.builder().walSyncInterval(java.time.Duration.ofHours(1)).build(), fs);
        long before = logSyncs.get();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    db.put(String.format("t%d-%04d", id, i).getBytes(), new byte[64], WriteOptions.sync());
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long syncs = logSyncs.get() - before;
        int writes = threads * perThread;
        assertTrue(syncs < writes, syncs + " WAL forces for " + writes + " SYNC writes: group commit must share forces");
        db.close();
        EngineImpl reopened = EngineImpl.open(dir, EngineOptions.defaults(), DefaultFileSystem.forDirectory(dir, true));
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                assertArrayEquals(new byte[64], reopened.get(String.format("t%d-%04d", t, i).getBytes()));
            }
        }
        reopened.close();
    }

    /** Counts forces of log files. */
    private static final class CountingFileSystem implements FileSystem {
        private final FileSystem d;
        private final AtomicLong logSyncs;

        CountingFileSystem(FileSystem d, AtomicLong logSyncs) {
            this.d = d;
            this.logSyncs = logSyncs;
        }

        @Override
        public WritableFile createLog(Path path) throws IOException {
            WritableFile f = d.createLog(path);
            if (!path.getFileName().toString().endsWith(".log")) {
                return f;
            }
            return new WritableFile() {
                @Override
                public void append(byte[] b, int off, int len) throws IOException {
                    f.append(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    f.flush();
                }

                @Override
                public void sync() throws IOException {
                    logSyncs.incrementAndGet();
                    f.sync();
                }

                @Override
                public long size() {
                    return f.size();
                }

                @Override
                public void close() throws IOException {
                    f.close();
                }
            };
        }

        @Override
        public WritableFile createTable(Path path) throws IOException {
            return d.createTable(path);
        }

        @Override
        public ReadableFile openTable(Path path) throws IOException {
            return d.openTable(path);
        }

        @Override
        public byte[] readAll(Path path) throws IOException {
            return d.readAll(path);
        }

        @Override
        public boolean exists(Path path) {
            return d.exists(path);
        }

        @Override
        public long size(Path path) throws IOException {
            return d.size(path);
        }

        @Override
        public List<String> list(Path dir) throws IOException {
            return d.list(dir);
        }

        @Override
        public void createDirectories(Path dir) throws IOException {
            d.createDirectories(dir);
        }

        @Override
        public void delete(Path path) throws IOException {
            d.delete(path);
        }

        @Override
        public void rename(Path source, Path target) throws IOException {
            d.rename(source, target);
        }

        @Override
        public void syncDirectory(Path dir) throws IOException {
            d.syncDirectory(dir);
        }

        @Override
        public Closeable lock(Path lockFile) throws IOException {
            return d.lock(lockFile);
        }

        @Override
        public String tableIoMode() {
            return d.tableIoMode();
        }
    }
}
