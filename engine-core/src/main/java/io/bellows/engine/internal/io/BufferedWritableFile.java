package io.bellows.engine.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A file written through the page cache with a user-space buffer, for logs and for table files where
 * direct I/O is unavailable. The buffer turns the many small appends of a log (one per record) into
 * few system calls; a WAL flushes or syncs after each group commit anyway.
 */
final class BufferedWritableFile implements WritableFile {
    static final int BUFFER_SIZE = 64 << 10;

    private final Path path;
    private final FileChannel channel;
    private final byte[] buf = new byte[BUFFER_SIZE];
    private final ByteBuffer bufView = ByteBuffer.wrap(buf);
    private int buffered;
    private long size;
    private boolean closed;

    BufferedWritableFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public void append(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(off, len, b.length);
        if (len > buf.length - buffered) {
            writeBuffer();
            if (len >= buf.length) {
                // A large append goes straight to the channel rather than through the buffer in pieces.
                writeFully(ByteBuffer.wrap(b, off, len));
                size += len;
                return;
            }
        }
        System.arraycopy(b, off, buf, buffered, len);
        buffered += len;
        size += len;
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        writeBuffer();
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        writeBuffer();
        channel.force(false);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (FileChannel ch = channel) {
            writeBuffer();
        }
    }

    private void writeBuffer() throws IOException {
        if (buffered == 0) {
            return;
        }
        bufView.clear().limit(buffered);
        writeFully(bufView);
        buffered = 0;
    }

    private void writeFully(ByteBuffer bb) throws IOException {
        while (bb.hasRemaining()) {
            channel.write(bb);
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": file is closed");
        }
    }
}
