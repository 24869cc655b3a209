package io.bellows.engine.internal.wal;

import io.bellows.engine.internal.io.WritableFile;
import java.io.IOException;
import java.util.Arrays;

/** An in-memory {@link WritableFile} that counts flushes and syncs and can fail after a byte budget. */
final class MemWritableFile implements WritableFile {
    private byte[] data = new byte[1024];
    private int size;
    private long failAfter = Long.MAX_VALUE;
    int flushes;
    int syncs;
    boolean closed;

    /** Appends fail once the file would grow past {@code bytes}; the bytes that fit are kept (a torn write). */
    void failAfter(long bytes) {
        failAfter = bytes;
    }

    @Override
    public void append(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        int fits = (int) Math.max(0, Math.min(len, failAfter - size));
        ensure(fits);
        System.arraycopy(b, off, data, size, fits);
        size += fits;
        if (fits < len) {
            throw new IOException("injected write failure at " + size);
        }
    }

    @Override
    public void flush() throws IOException {
        flushes++;
    }

    @Override
    public void sync() throws IOException {
        syncs++;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void close() {
        closed = true;
    }

    byte[] contents() {
        return Arrays.copyOf(data, size);
    }

    private void ensure(int extra) {
        if (size + extra > data.length) {
            data = Arrays.copyOf(data, Math.max(size + extra, 2 * data.length));
        }
    }
}
