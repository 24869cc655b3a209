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
 * {@link InterruptedIOException} with its interrupt status kept. The same path serves the process's
 * bound on open files ({@link OpenChannels}): a parked channel's file is closed, and the next read
 * reopens it.
 */
final class ReopeningChannel {
    /** One positional read against a channel. */
    interface Read<T> {
        T run(FileChannel channel) throws IOException;
    }

    private final Path path;
    private final OpenOption[] options;
    private final long size;
    private final OpenChannels budget;
    private volatile FileChannel channel;
    private volatile boolean closed;
    /** Read since the clock hand last passed (a benign race: a lost bit only makes parking less exact). */
    boolean referenced;
    /** Guarded by {@link #budget}'s monitor: listed in its ring; counted as open. */
    boolean inRing;
    boolean counted;

    /** Opens the file and reads its size (table files are immutable once written). */
    ReopeningChannel(Path path, OpenOption... options) throws IOException {
        this(OpenChannels.PROCESS, path, options);
    }

    ReopeningChannel(OpenChannels budget, Path path, OpenOption... options) throws IOException {
        this.budget = budget;
        this.path = path;
        this.options = options.clone();
        this.channel = FileChannel.open(path, options);
        try {
            this.size = channel.size();
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        budget.opened(this);
    }

    long size() {
        return size;
    }

    <T> T read(Read<T> read) throws IOException {
        referenced = true;
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

    private void reopen(FileChannel broken) throws IOException {
        boolean reopened;
        synchronized (this) {
            reopened = channel == broken && !closed;
            if (reopened) {
                // Opening is not interruptible, so an interrupted caller still restores the channel for others.
                channel = FileChannel.open(path, options);
            }
        }
        if (reopened) {
            budget.opened(this);
        }
    }

    /** Closes the file to give its descriptor back, not the channel: the next read reopens it. */
    synchronized void park() {
        if (!closed) {
            try {
                channel.close();
            } catch (IOException e) {
                // A read-only file whose close failed has nothing left to lose; the descriptor is gone either way.
            }
        }
    }

    boolean closedForGood() {
        return closed;
    }

    void close() throws IOException {
        try {
            synchronized (this) {
                closed = true;
                channel.close();
            }
        } finally {
            budget.closed(this);
        }
    }
}
