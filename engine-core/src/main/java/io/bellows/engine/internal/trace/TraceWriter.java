package io.bellows.engine.internal.trace;

import io.bellows.engine.Cursor;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records an engine's calls to a trace file (docs/formats/trace.md), RocksDB's tracer for Bellows. The
 * engine calls the methods below after a call returned normally, with the {@link System#nanoTime()} at
 * which the call started. Each thread fills its own block ({@link TraceBuffer}); only a full block
 * takes the file's lock, for one write: nothing is forced per operation, so a crash loses the blocks
 * not yet written and may tear the last one, which the reader detects and leaves out.
 *
 * <p>Recording never changes a call's outcome: a failed write to the trace file stops the trace (logged
 * once) and the engine goes on.
 */
public final class TraceWriter implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(TraceWriter.class);
    static final int BLOCK_SIZE = 32 << 10;

    private final Path file;
    private final FileChannel channel;
    private final boolean values;
    private final long maxFileSize;
    private final long startNanos;
    private final int blockSize;
    private final ThreadLocal<TraceBuffer> local = ThreadLocal.withInitial(this::newBuffer);
    /** Every thread's buffer, so that close writes their partial blocks. Guarded by this. */
    private final List<TraceBuffer> buffers = new ArrayList<>();
    /** Whether close has begun: a thread recording its first call after that gets a closed buffer. Guarded by this. */
    private boolean ended;
    private final AtomicLong cursorIds = new AtomicLong();
    private final Object fileLock = new Object();
    /** Bytes in the file. Guarded by fileLock. */
    private long size;
    /** Set when the file is full or a write failed: later records are dropped. */
    private volatile boolean stopped;

    private TraceWriter(Path file, FileChannel channel, TraceOptions options, int blockSize, long startNanos) {
        this.file = file;
        this.channel = channel;
        this.values = options.values();
        this.maxFileSize = options.maxFileSize();
        this.blockSize = blockSize;
        this.startNanos = startNanos;
    }

    /** Creates (or truncates) {@code file} and starts recording. */
    public static TraceWriter start(Path file, TraceOptions options) throws IOException {
        return start(file, options, BLOCK_SIZE);
    }

    /** As {@link #start(Path, TraceOptions)} with blocks of {@code blockSize} bytes (tests use small ones). */
    static TraceWriter start(Path file, TraceOptions options, int blockSize) throws IOException {
        return start(file, options, blockSize, System.nanoTime(), System.currentTimeMillis());
    }

    /** With a given clock origin, so that a test can pin every byte (the example of trace.md). */
    static TraceWriter start(Path file, TraceOptions options, int blockSize, long startNanos, long startEpochMillis)
            throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        TraceWriter w = new TraceWriter(file, ch, options, blockSize, startNanos);
        byte[] header = TraceFormat.header(options.values(), startEpochMillis);
        w.append(header, 0, header.length);
        if (w.stopped) {
            ch.close();
            throw new IOException("cannot write the header of trace " + file);
        }
        return w;
    }

    public Path file() {
        return file;
    }

    private synchronized TraceBuffer newBuffer() {
        TraceBuffer b = new TraceBuffer(this, buffers.size(), ended ? 0 : blockSize);
        if (ended) {
            b.close();
        } else {
            buffers.add(b);
        }
        return b;
    }

    /** Trace time of a call that started at {@code nanos}: a call begun before the trace counts as at 0. */
    private long time(long nanos) {
        return Math.max(0, nanos - startNanos);
    }

    public void get(long t0, byte[] key) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(TraceFormat.GET, time(t0), 5 + key.length)) {
                b.bytes(key);
            }
        }
    }

    public void put(long t0, byte[] key, byte[] value) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(TraceFormat.PUT, time(t0), 10 + key.length + (values ? value.length : 0))) {
                b.bytes(key);
                b.varLong(value.length);
                if (values) {
                    b.raw(value, 0, value.length);
                }
            }
        }
    }

    public void delete(long t0, byte[] key) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(TraceFormat.DELETE, time(t0), 5 + key.length)) {
                b.bytes(key);
            }
        }
    }

    public void write(long t0, WriteBatch batch) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(TraceFormat.WRITE, time(t0), 5 + 16L * batch.count())) {
                b.varLong(batch.count());
                batch.forEach(new WriteBatch.Handler() {
                    @Override
                    public void put(byte[] key, byte[] value) {
                        b.u8(TraceFormat.BATCH_PUT);
                        b.bytes(key);
                        b.varLong(value.length);
                        if (values) {
                            b.raw(value, 0, value.length);
                        }
                    }

                    @Override
                    public void delete(byte[] key) {
                        b.u8(TraceFormat.BATCH_DELETE);
                        b.bytes(key);
                    }
                });
            }
        }
    }

    public void multiGet(long t0, List<byte[]> keys) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(TraceFormat.MULTI_GET, time(t0), 5 + 16L * keys.size())) {
                b.varLong(keys.size());
                for (byte[] key : keys) {
                    b.bytes(key);
                }
            }
        }
    }

    /** Records the opening of {@code cursor} and returns it wrapped, so that its moves are recorded too. */
    public Cursor cursor(long t0, Cursor cursor, ReadOptions ro) {
        long id = cursorIds.incrementAndGet();
        if (!stopped) {
            byte[] lower = ro.lowerBound();
            byte[] upper = ro.upperBound();
            TraceBuffer b = local.get();
            synchronized (b) {
                if (b.begin(TraceFormat.CURSOR_OPEN, time(t0), 30 + (lower == null ? 0 : lower.length)
                        + (upper == null ? 0 : upper.length))) {
                    b.varLong(id);
                    b.u8((lower == null ? 0 : TraceFormat.LOWER_BOUND) | (upper == null ? 0 : TraceFormat.UPPER_BOUND));
                    if (lower != null) {
                        b.bytes(lower);
                    }
                    if (upper != null) {
                        b.bytes(upper);
                    }
                }
            }
        }
        return new TracingCursor(cursor, this, id);
    }

    /** A cursor move with a key (seek, seekForPrev) or without (seekToFirst, seekToLast, close). */
    void cursorOp(int kind, long cursor, long t0, byte[] key) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            if (b.begin(kind, time(t0), 15 + (key == null ? 0 : key.length))) {
                b.varLong(cursor);
                if (key != null) {
                    b.bytes(key);
                }
            }
        }
    }

    /** A next or prev: runs of them become one record. */
    void cursorStep(int kind, long cursor, long t0) {
        if (stopped) {
            return;
        }
        TraceBuffer b = local.get();
        synchronized (b) {
            b.step(kind, cursor, time(t0));
        }
    }

    /** Writes one framed block, or drops it once the trace is full or has failed. */
    void append(byte[] b, int off, int len) {
        synchronized (fileLock) {
            if (stopped) {
                return;
            }
            if (size + len > maxFileSize) {
                stopped = true;
                LOG.warn("trace {} reached maxFileSize ({} bytes): recording stopped, the trace so far stays readable",
                        file, maxFileSize);
                return;
            }
            try {
                ByteBuffer bb = ByteBuffer.wrap(b, off, len);
                while (bb.hasRemaining()) {
                    channel.write(bb);
                }
                size += len;
            } catch (IOException e) {
                stopped = true;
                LOG.error("writing trace {} failed: recording stopped, the engine goes on", file, e);
            }
        }
    }

    /** Writes every thread's partial block, forces the file once and closes it. */
    @Override
    public void close() throws IOException {
        List<TraceBuffer> all;
        synchronized (this) {
            ended = true;
            all = new ArrayList<>(buffers);
            buffers.clear();
        }
        for (TraceBuffer b : all) {
            synchronized (b) {
                b.close();
            }
        }
        synchronized (fileLock) {
            stopped = true;
            try {
                channel.force(false);
            } finally {
                channel.close();
            }
        }
    }
}
