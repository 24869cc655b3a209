package io.bellows.engine.internal.table;

import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.io.WritableFile;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/** In-memory files for table tests, independent of the real file systems. */
final class MemFiles {
    private MemFiles() {}

    static final class Writable implements WritableFile {
        private byte[] buf = new byte[1024];
        private int size;
        boolean synced;
        boolean closed;

        @Override
        public void append(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            if (size + len > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(size + len, 2 * buf.length));
            }
            System.arraycopy(b, off, buf, size, len);
            size += len;
            synced = false;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            synced = true;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {
            closed = true;
        }

        byte[] bytes() {
            return Arrays.copyOf(buf, size);
        }
    }

    static class Readable implements ReadableFile {
        private final byte[] data;
        volatile boolean closed;

        Readable(byte[] data) {
            this.data = data;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            if (position < 0 || position + len > data.length) {
                throw new EOFException("read of " + len + " at " + position + " past end " + data.length);
            }
            System.arraycopy(data, (int) position, dst, off, len);
        }

        @Override
        public long size() {
            return data.length;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
