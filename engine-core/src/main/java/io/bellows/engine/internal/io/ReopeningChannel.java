package io.bellows.engine.internal.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * A read-only FileChannel shared by many threads that survives interrupts. Java closes a FileChannel
 * for every user when any thread blocked in it is interrupted; a table reader shared by all gets of
 * an engine must not die because one caller was interrupted. A read that finds the channel closed
 * (and the file not closed on purpose) reopens it and retries; the interrupted thread itself gets an
 * {@link InterruptedIOException} with its interrupt status kept.
 */
final class ReopeningChannel {
    /** One positional read against a channel. */
    interface Read<T> {
        T run(FileChannel channel) throws IOException;
    }

    private final Path path;
    private final OpenOption[] options;
    private final long size;
    private volatile FileChannel channel;
    private volatile boolean closed;

    /** Opens the file and reads its size (table files are immutable once written). */
    ReopeningChannel(Path path, OpenOption... options) throws IOException {
        this.path = path;
        this.options = options.clone();
        this.channel = FileChannel.open(path, options);
        try {
            this.size = channel.size();
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    long size() {
        return size;
    }

    <T> T read(Read<T> read) throws IOException {
        while (true) {
            FileChannel ch = channel;
            try {
                return read.run(ch);
            } catch (ClosedChannelException e) {
                if (closed) {
                    throw e;
                }
                reopen(ch);
                if (e instanceof ClosedByInterruptException || Thread.currentThread().isInterrupted()) {
                    InterruptedIOException ie = new InterruptedIOException(path + ": read interrupted");
                    ie.initCause(e);
                    throw ie;
                }
            }
        }
    }

    private synchronized void reopen(FileChannel broken) throws IOException {
        if (channel == broken && !closed) {
            // Opening is not interruptible, so an interrupted caller still restores the channel for others.
            channel = FileChannel.open(path, options);
        }
    }

    synchronized void close() throws IOException {
        closed = true;
        channel.close();
    }
}
