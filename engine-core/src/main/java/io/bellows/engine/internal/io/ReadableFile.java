package io.bellows.engine.internal.io;

import java.io.IOException;

/** A file read at arbitrary positions; safe for concurrent reads. */
public interface ReadableFile extends AutoCloseable {
    /**
     * Reads exactly {@code len} bytes at {@code position} into {@code dst[off, off+len)}. Throws
     * {@link java.io.EOFException} if the file ends first.
     */
    void read(long position, byte[] dst, int off, int len) throws IOException;

    default byte[] read(long position, int len) throws IOException {
        byte[] b = new byte[len];
        read(position, b, 0, len);
        return b;
    }

    long size();

    @Override
    void close() throws IOException;
}
