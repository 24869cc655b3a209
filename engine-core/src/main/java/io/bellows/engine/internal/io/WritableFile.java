package io.bellows.engine.internal.io;

import java.io.IOException;

/**
 * A file written sequentially. {@link #append} may buffer; {@link #flush} hands buffered bytes to the
 * OS (they survive a process crash); {@link #sync} makes everything appended durable (survives a
 * machine crash). Not safe for concurrent use.
 */
public interface WritableFile extends AutoCloseable {
    void append(byte[] b, int off, int len) throws IOException;

    default void append(byte[] b) throws IOException {
        append(b, 0, b.length);
    }

    void flush() throws IOException;

    void sync() throws IOException;

    /** Bytes appended so far. */
    long size();

    /** Flushes and closes; does not sync. */
    @Override
    void close() throws IOException;
}
