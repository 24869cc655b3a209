package io.bellows.engine.internal.trace;

import java.util.List;

/**
 * One recorded call, decoded (docs/formats/trace.md, "Records"). {@code time} is nanoseconds from the
 * start of the trace to the start of the call. A value is null when the trace holds lengths only.
 */
public sealed interface TraceRecord {
    long time();

    /** A get, point or into a caller's buffer. */
    record Get(long time, byte[] key) implements TraceRecord {}

    record Put(long time, byte[] key, int valueLength, byte[] value) implements TraceRecord {}

    record Delete(long time, byte[] key) implements TraceRecord {}

    /** A write batch, its operations in order. */
    record Write(long time, List<BatchOp> ops) implements TraceRecord {}

    /** One operation of a write batch: a put (with its value length) or a delete. */
    record BatchOp(boolean put, byte[] key, int valueLength, byte[] value) {}

    record MultiGet(long time, List<byte[]> keys) implements TraceRecord {}

    /** A cursor opened with these bounds (null: unbounded); {@code cursor} names it in later records. */
    record CursorOpen(long time, long cursor, byte[] lower, byte[] upper) implements TraceRecord {}

    /**
     * A positioning or the close of a cursor: {@code kind} is SEEK or SEEK_FOR_PREV (with a key),
     * SEEK_TO_FIRST, SEEK_TO_LAST or CURSOR_CLOSE (key null), as in {@link TraceFormat}.
     */
    record CursorMove(int kind, long time, long cursor, byte[] key) implements TraceRecord {}

    /** {@code steps} consecutive next (forward) or prev calls on one cursor, the first at {@code time}. */
    record CursorStep(long time, long cursor, boolean forward, long steps) implements TraceRecord {}
}
