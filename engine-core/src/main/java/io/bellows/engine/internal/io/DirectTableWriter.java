package io.bellows.engine.internal.io;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a table file with direct I/O, bypassing the page cache: a table is read back through the
 * engine's block cache, so caching its pages in the OS too would only double the memory it costs.
 *
 * <p>Appends fill an aligned direct buffer that goes to disk in whole aligned chunks, written behind
 * the caller ({@link WriteBehind}): a full chunk is handed to a writer thread and appends go on into a
 * second buffer; the next full chunk waits for the one before it, so at most one is in flight. A flush,
 * sync or close waits for it, then writes the partial last block itself, zero-padded to the alignment,
 * and truncates the file to its logical size; the partial block stays at the start of the buffer so the
 * next chunk rewrites it in place with more bytes after it. A failed write behind is thrown by the next
 * call that waits for it, and by every call after it: the file is broken.
 *
 * <p>Invariants: {@code base} is a multiple of {@code align}; the buffer holds the file's bytes
 * {@code [base, base + buffered)}; every byte before {@code base} is on disk or in the chunk in flight.
 * One thread at a time (a table's builder, then the thread it hands the file to).
 */
final class DirectTableWriter implements WritableFile {
    private final Path path;
    private final FileChannel channel;
    private final int align;
    private ByteBuffer buf;
    /** The other buffer: in flight, or free; null until a second chunk is needed. */
    private ByteBuffer spare;
    private CompletableFuture<Throwable> inFlight;
    private IOException failed;
    private long base;
    private int buffered;
    /** Logical length the file on disk has, so a repeated flush of nothing new costs no I/O. */
    private long onDisk;
    private boolean closed;

    DirectTableWriter(Path path, int align) throws IOException {
        this(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT), align);
    }

    /** Over an open channel (a test's, to fail its writes). */
    DirectTableWriter(Path path, FileChannel channel, int align) {
        this.path = path;
        this.align = align;
        this.channel = channel;
        this.buf = WriteBehind.chunk(align);
    }

    @Override
    public void append(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        if (failed != null) {
            throw failed;
        }
        Objects.checkFromIndexSize(off, len, b.length);
        int cap = buf.capacity();
        while (len > 0) {
            int n = Math.min(len, cap - buffered);
            buf.put(buffered, b, off, n);
            buffered += n;
            off += n;
            len -= n;
            if (buffered == cap) {
                writeBehind(cap);
            }
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        writeTail();
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        writeTail();
        // NB: fdatasync also persists the size change of the truncate, which is what recovery reads.
        channel.force(false);
    }

    @Override
    public long size() {
        return base + buffered;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (FileChannel ch = channel) {
            if (failed == null) {
                writeTail();
            }
        } finally {
            // Nothing is in flight (writeTail waited, or the failure came from the wait): the buffers are free.
            WriteBehind.release(buf, align);
            WriteBehind.release(spare, align);
            buf = null;
            spare = null;
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Hands the full buffer's {@code n} bytes at {@code base} to a writer thread and swaps buffers. */
    private void writeBehind(int n) throws IOException {
        awaitInFlight();
        ByteBuffer full = buf;
        long at = base;
        ByteBuffer fill = spare != null ? spare : WriteBehind.chunk(align);
        // Started before the swap: if starting fails, the full chunk is still the one buffered here.
        inFlight = WriteBehind.start(() -> writeAligned(full, n, at));
        buf = fill;
        spare = full;
        base += n;
        buffered = 0;
    }

    private void writeTail() throws IOException {
        awaitInFlight();
        long logical = base + buffered;
        if (logical == onDisk) {
            return;
        }
        int padded = (int) DirectIo.alignUp(buffered, align);
        for (int i = buffered; i < padded; i++) {
            buf.put(i, (byte) 0);
        }
        writeAligned(buf, padded, base);
        channel.truncate(logical);
        onDisk = logical;
        int whole = (int) DirectIo.alignDown(buffered, align);
        int tail = buffered - whole;
        if (whole > 0 && tail > 0) {
            // Source [whole, buffered) and destination [0, tail) cannot overlap: tail < align <= whole.
            buf.put(0, buf, whole, tail);
        }
        base += whole;
        buffered = tail;
    }

    /** Waits (uninterruptibly: the write is bounded and owns a buffer) for the chunk in flight. */
    private void awaitInFlight() throws IOException {
        if (inFlight != null) {
            Throwable e = inFlight.join();
            inFlight = null;
            if (e != null) {
                failed = e instanceof IOException io ? io : new IOException(path + ": write failed", e);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Writes {@code b[0, n)} at {@code pos}; {@code n} is a multiple of the alignment. */
    private void writeAligned(ByteBuffer b, int n, long pos) throws IOException {
        ByteBuffer view = b.duplicate().clear().limit(n);
        while (view.hasRemaining()) {
            pos += channel.write(view, pos);
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": file is closed");
        }
    }
}
