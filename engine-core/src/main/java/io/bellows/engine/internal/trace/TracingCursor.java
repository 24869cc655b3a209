package io.bellows.engine.internal.trace;

import io.bellows.engine.Cursor;

/**
 * A cursor whose moves are recorded to a trace once they returned normally. Reads of the current
 * entry ({@code isValid}, {@code key}, {@code value}) are not recorded: a replay's cursor is where the
 * recorded moves put it.
 */
final class TracingCursor implements Cursor {
    private final Cursor cursor;
    private final TraceWriter trace;
    private final long id;
    private boolean closed;

    TracingCursor(Cursor cursor, TraceWriter trace, long id) {
        this.cursor = cursor;
        this.trace = trace;
        this.id = id;
    }

    @Override
    public void seek(byte[] key) {
        long t0 = System.nanoTime();
        cursor.seek(key);
        trace.cursorOp(TraceFormat.SEEK, id, t0, key);
    }

    @Override
    public void seekForPrev(byte[] key) {
        long t0 = System.nanoTime();
        cursor.seekForPrev(key);
        trace.cursorOp(TraceFormat.SEEK_FOR_PREV, id, t0, key);
    }

    @Override
    public void seekToFirst() {
        long t0 = System.nanoTime();
        cursor.seekToFirst();
        trace.cursorOp(TraceFormat.SEEK_TO_FIRST, id, t0, null);
    }

    @Override
    public void seekToLast() {
        long t0 = System.nanoTime();
        cursor.seekToLast();
        trace.cursorOp(TraceFormat.SEEK_TO_LAST, id, t0, null);
    }

    @Override
    public boolean isValid() {
        return cursor.isValid();
    }

    @Override
    public void next() {
        long t0 = System.nanoTime();
        cursor.next();
        trace.cursorStep(TraceFormat.NEXT, id, t0);
    }

    @Override
    public void prev() {
        long t0 = System.nanoTime();
        cursor.prev();
        trace.cursorStep(TraceFormat.PREV, id, t0);
    }

    @Override
    public byte[] key() {
        return cursor.key();
    }

    @Override
    public byte[] value() {
        return cursor.value();
    }

    @Override
    public void close() {
        long t0 = System.nanoTime();
        cursor.close();
        if (!closed) {
            closed = true;
            trace.cursorOp(TraceFormat.CURSOR_CLOSE, id, t0, null);
        }
    }
}
