package io.bellows.engine.internal.trace;

import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * One thread's block being filled (docs/formats/trace.md, "Blocks"): records are appended after room
 * kept for the block's head, and a full block is framed in place and handed to the {@link TraceWriter}
 * in one write. Steps of a cursor ({@code next}, {@code prev}) are kept as a run and written as one
 * record when anything else is recorded on the thread, so a scan costs one record, not one per step,
 * and the records of the block stay in time order.
 *
 * <p>Guarded by its own monitor: the owning thread appends under it (uncontended, so cheap), and the
 * thread that ends the trace takes it once to write the last, partial block.
 */
final class TraceBuffer {
    /** Room for the head: u32 body length, varint thread, varlong base time, varint record count. */
    static final int HEAD_ROOM = 4 + 5 + 10 + 5;

    private final TraceWriter out;
    private final int thread;
    private final int blockSize;
    private byte[] buf;
    private int pos = HEAD_ROOM;
    private int count;
    private long base;
    private long last;
    private boolean closed;
    private long runCursor;
    private int runKind;
    private int runSteps;
    private long runTime;

    TraceBuffer(TraceWriter out, int thread, int blockSize) {
        this.out = out;
        this.thread = thread;
        this.blockSize = blockSize;
        this.buf = new byte[HEAD_ROOM + blockSize + 4];
    }

    /**
     * Starts a record of {@code kind} at trace time {@code t}, flushing the block first if about
     * {@code sizeHint} more bytes would overfill it; false (and nothing written) once the trace ended.
     */
    boolean begin(int kind, long t, long sizeHint) {
        if (closed) {
            return false;
        }
        if (runSteps > 0) {
            endRun();
        }
        start(kind, t, sizeHint);
        return true;
    }

    /** A cursor step: joins the run of the same kind on the same cursor, or starts a new run. */
    void step(int kind, long cursor, long t) {
        if (closed) {
            return;
        }
        if (runSteps > 0 && runCursor == cursor && runKind == kind) {
            runSteps++;
            return;
        }
        if (runSteps > 0) {
            endRun();
        }
        runCursor = cursor;
        runKind = kind;
        runSteps = 1;
        runTime = t;
    }

    private void endRun() {
        int steps = runSteps;
        runSteps = 0;
        start(runKind, runTime, 15);
        varLong(runCursor);
        varLong(steps);
    }

    private void start(int kind, long t, long sizeHint) {
        if (count > 0 && pos + 11 + sizeHint + 4 > HEAD_ROOM + blockSize + 4) {
            flush();
        }
        if (count == 0) {
            base = t;
            last = t;
        }
        // NB: a thread's calls are sequential, so times only grow; the clamp guards against a clock step.
        long delta = Math.max(0, t - last);
        last = Math.max(last, t);
        ensure(11);
        buf[pos++] = (byte) kind;
        pos = Coding.putVarLong(buf, pos, delta);
        count++;
    }

    void varLong(long v) {
        ensure(10);
        pos = Coding.putVarLong(buf, pos, v);
    }

    /** A length-prefixed byte string. */
    void bytes(byte[] b) {
        varLong(b.length);
        raw(b, 0, b.length);
    }

    void raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    void u8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    /** Grows the block for a record larger than the room left (the CRC's 4 bytes stay reserved). */
    private void ensure(int n) {
        long need = (long) pos + n + 4;
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("trace record too large: " + need + " bytes");
            }
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, 2L * buf.length)));
        }
    }

    /** Frames the block in place (head right-aligned before the records, CRC after) and writes it. */
    void flush() {
        if (runSteps > 0) {
            endRun();
        }
        if (count == 0) {
            return;
        }
        int headVarints = Coding.varLongSize(thread) + Coding.varLongSize(base) + Coding.varLongSize(count);
        int from = HEAD_ROOM - 4 - headVarints;
        int body = from + 4;
        Coding.putInt(buf, from, pos - body);
        int p = Coding.putVarLong(buf, body, thread);
        p = Coding.putVarLong(buf, p, base);
        Coding.putVarLong(buf, p, count);
        Coding.putInt(buf, pos, Checksums.maskedCrc32c(buf, body, pos - body));
        out.append(buf, from, pos + 4 - from);
        pos = HEAD_ROOM;
        count = 0;
        if (buf.length > 2 * (HEAD_ROOM + blockSize + 4)) {
            buf = new byte[HEAD_ROOM + blockSize + 4];
        }
    }

    /**
     * Writes what is left and records nothing more. The block's memory is let go: the thread's
     * ThreadLocal entry outlives the trace until the thread ends.
     */
    void close() {
        if (!closed) {
            flush();
            closed = true;
            buf = new byte[0];
        }
    }
}
