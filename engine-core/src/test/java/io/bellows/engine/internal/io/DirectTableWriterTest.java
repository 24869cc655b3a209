package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bellows.engine.TestSeeds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's chunks written behind it: bytes, pooled buffers shared by writers, and failures. */
class DirectTableWriterTest {
    @TempDir
    Path dir;

    @Test
    void writersSideBySideKeepTheirOwnBytes() throws Exception {
        int align = DirectIo.blockSize(dir);
        assumeTrue(DirectIo.probe(dir, align), "direct I/O unsupported under " + dir);
        long seed = TestSeeds.seed("DirectTableWriterTest.writersSideBySide");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    // Several files per thread, so buffers go back to the pool and out to other writers.
                    for (int f = 0; f < 3; f++) {
                        writeAndCheck(dir.resolve(id + "-" + f + ".sst"), align, new Random(seed + 31 * id + f));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void writeAndCheck(Path file, int align, Random rnd) throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (DirectTableWriter w = new DirectTableWriter(file, align)) {
            while (expected.size() < 3 * WriteBehind.CHUNK + 12_345) {
                byte[] b = new byte[rnd.nextInt(70_000)];
                rnd.nextBytes(b);
                w.append(b, 0, b.length);
                expected.write(b, 0, b.length);
                if (rnd.nextInt(8) == 0) {
                    w.sync();
                    assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file), file + " after a sync");
                }
            }
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file), file.toString());
    }

    @Test
    void aFailedWriteBehindIsThrownByTheNextWaitAndEveryCallAfter() throws IOException {
        Path file = dir.resolve("full.sst");
        FailingChannel ch = new FailingChannel(FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE), WriteBehind.CHUNK);
        DirectTableWriter w = new DirectTableWriter(file, ch, DirectIo.DEFAULT_BLOCK_SIZE);
        byte[] chunk = new byte[WriteBehind.CHUNK];
        new Random(7).nextBytes(chunk);
        w.append(chunk, 0, chunk.length); // chunk 0 goes behind and lands
        w.append(chunk, 0, chunk.length); // waits for chunk 0; chunk 1 goes behind and fails
        w.append(chunk, 0, 10); // no wait: buffered
        IOException first = assertThrows(IOException.class, w::sync);
        assertSame(ch.failure, first, "the channel's own exception, not a wrapper");
        assertSame(first, assertThrows(IOException.class, w::flush));
        assertSame(first, assertThrows(IOException.class, () -> w.append(chunk, 0, 1)));
        assertSame(first, assertThrows(IOException.class, w::close));
        assertFalse(ch.isOpen(), "closed despite the failure");
        byte[] onDisk = Files.readAllBytes(file);
        assertArrayEquals(chunk, onDisk, "the chunk before the failure, and nothing after it");
    }

    /** Not an IOException: still the file's failure, thrown by every call after it as an IOException. */
    @Test
    void anErrorWritingBehindFailsTheFile() throws IOException {
        Path file = dir.resolve("error.sst");
        FailingChannel ch = new FailingChannel(FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE), 0);
        ch.error = new OutOfMemoryError("injected");
        DirectTableWriter w = new DirectTableWriter(file, ch, DirectIo.DEFAULT_BLOCK_SIZE);
        byte[] chunk = new byte[WriteBehind.CHUNK];
        w.append(chunk, 0, chunk.length); // goes behind and fails
        IOException first = assertThrows(IOException.class, w::sync);
        assertSame(ch.error, first.getCause());
        assertSame(first, assertThrows(IOException.class, w::close));
        assertFalse(ch.isOpen());
    }

    /** A channel whose positional writes fail from byte {@code failFrom} on, as a full disk. */
    private static final class FailingChannel extends FileChannel {
        private final FileChannel ch;
        private final long failFrom;
        final IOException failure = new IOException("No space left on device");
        /** Thrown instead of {@link #failure} when set. */
        Error error;

        FailingChannel(FileChannel ch, long failFrom) {
            this.ch = ch;
            this.failFrom = failFrom;
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            if (position + src.remaining() > failFrom) {
                if (error != null) {
                    throw error;
                }
                throw failure;
            }
            return ch.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return ch.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return ch.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            throw new UnsupportedOperationException("tables are written at positions");
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException("tables are written at positions");
        }

        @Override
        public long position() throws IOException {
            return ch.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            ch.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return ch.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            ch.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            ch.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return ch.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return ch.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return ch.read(dst, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return ch.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return ch.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return ch.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            ch.close();
        }
    }
}
