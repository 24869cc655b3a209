package io.bellows.engine.internal.io;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Reads a table file with direct I/O. Callers ask for arbitrary ranges (a block handle is not
 * aligned), so each read widens the range to whole aligned blocks, reads them into a per-thread
 * aligned buffer and copies out the bytes asked for.
 *
 * <p>Thread safety: safe for concurrent reads; positional reads on one channel do not interfere and
 * each thread has its own staging buffer.
 */
final class DirectTableReader implements ReadableFile {
    /** Largest aligned span read at once; bounds the per-thread staging buffer. */
    private static final int MAX_SPAN = 1 << 20;
    private static final ThreadLocal<ByteBuffer> STAGING = new ThreadLocal<>();

    private final Path path;
    private final ReopeningChannel channel;
    private final int align;

    DirectTableReader(Path path, int align) throws IOException {
        this.path = path;
        this.align = align;
        this.channel = new ReopeningChannel(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
    }

    @Override
    public void read(long position, byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        long pos = position;
        int done = 0;
        while (done < len) {
            long start = DirectIo.alignDown(pos, align);
            int skip = (int) (pos - start);
            int want = len - done;
            int span = (int) Math.min(DirectIo.alignUp((long) skip + want, align), MAX_SPAN);
            ByteBuffer buf = staging(span);
            int got = channel.read(ch -> readSpan(ch, buf, start, span));
            int n = Math.min(want, span - skip);
            if (got < skip + n) {
                throw new EOFException(path + ": read of " + len + " bytes at " + position + " passes the end of the "
                        + channel.size() + "-byte file");
            }
            buf.get(skip, dst, off + done, n);
            done += n;
            pos += n;
        }
    }

    /**
     * Reads up to {@code span} bytes at {@code start} into {@code buf}; fewer only at the end of the
     * file. A short transfer leaves the channel offset unaligned, so it ends the loop: it can only mean
     * end of file.
     */
    private int readSpan(FileChannel channel, ByteBuffer buf, long start, int span) throws IOException {
        buf.clear().limit(span);
        int total = 0;
        while (total < span) {
            int n = channel.read(buf, start + total);
            if (n <= 0) {
                break;
            }
            total += n;
            if ((total & (align - 1)) != 0) {
                break;
            }
        }
        return total;
    }

    private ByteBuffer staging(int span) {
        ByteBuffer buf = STAGING.get();
        if (buf == null || buf.capacity() < span || buf.alignmentOffset(0, align) != 0) {
            int cap = Math.max(span, buf == null ? 64 << 10 : Math.min(MAX_SPAN, buf.capacity() * 2));
            buf = DirectIo.allocateAligned((int) DirectIo.alignUp(cap, align), align);
            STAGING.set(buf);
        }
        return buf;
    }

    @Override
    public long size() {
        return channel.size();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
