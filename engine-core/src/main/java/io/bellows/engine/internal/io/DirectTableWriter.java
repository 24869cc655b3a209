package io.bellows.engine.internal.io;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Writes a table file with direct I/O, bypassing the page cache: a table is read back through the
 * engine's block cache, so caching its pages in the OS too would only double the memory it costs.
 *
 * <p>Appends fill an aligned direct buffer that goes to disk in whole aligned chunks. A flush, sync
 * or close also writes the partial last block, zero-padded to the alignment, then truncates the file
 * to its logical size; the partial block stays at the start of the buffer so the next chunk rewrites
 * it in place with more bytes after it.
 *
 * <p>Invariants: {@code base} is a multiple of {@code align}; the buffer holds the file's bytes
 * {@code [base, base + buffered)}; every byte before {@code base} is on disk.
 */
final class DirectTableWriter implements WritableFile {
    /** Bytes written per chunk; a multiple of every block size {@link DirectIo} accepts. */
    private static final int CHUNK = 256 << 10;

    private final Path path;
    private final FileChannel channel;
    private final int align;
    private final ByteBuffer buf;
    private long base;
    private int buffered;
    /** Logical length the file on disk has, so a repeated flush of nothing new costs no I/O. */
    private long onDisk;
    private boolean closed;

    DirectTableWriter(Path path, int align) throws IOException {
        this.path = path;
        this.align = align;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT);
        this.buf = DirectIo.allocateAligned(Math.max(CHUNK, align), align);
    }

    @Override
    public void append(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(off, len, b.length);
        int cap = buf.capacity();
        while (len > 0) {
            int n = Math.min(len, cap - buffered);
            buf.put(buffered, b, off, n);
            buffered += n;
            off += n;
            len -= n;
            if (buffered == cap) {
                writeAligned(cap);
                base += cap;
                buffered = 0;
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
            writeTail();
        }
    }

    private void writeTail() throws IOException {
        long logical = base + buffered;
        if (logical == onDisk) {
            return;
        }
        int padded = (int) DirectIo.alignUp(buffered, align);
        for (int i = buffered; i < padded; i++) {
            buf.put(i, (byte) 0);
        }
        writeAligned(padded);
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

    /** Writes {@code buf[0, n)} at {@code base}; {@code n} is a multiple of the alignment. */
    private void writeAligned(int n) throws IOException {
        buf.clear().limit(n);
        long pos = base;
        while (buf.hasRemaining()) {
            pos += channel.write(buf, pos);
        }
        // Absolute puts are bounded by the limit, so appends need it back at the capacity.
        buf.clear();
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": file is closed");
        }
    }
}
