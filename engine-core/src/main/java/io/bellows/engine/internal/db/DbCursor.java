package io.bellows.engine.internal.db;

import io.bellows.engine.Cursor;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.Version;
import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The user-facing cursor: merges MemStore and table sources, hides versions newer than its sequence,
 * shows only the newest visible version of each key and skips deleted keys, within [lower, upper).
 * Pins its MemStore view and version until closed.
 */
final class DbCursor implements Cursor {
    private final MergingIterator merged;
    private final long sequence;
    private final byte[] lower;
    private final byte[] upper;
    private final ReadPath engine;
    private final Pins pins;
    private final Cleaner.Cleanable cleanable;
    private byte[] key;
    private byte[] value;
    private boolean closed;

    /** What the cursor pins; released on close or when the cursor leaks. */
    private static final class Pins extends Handles.Resource {
        private final MergingIterator merged;
        private final MemStoreView view;
        private final Version version;

        Pins(MergingIterator merged, MemStoreView view, Version version) {
            super("Cursor");
            this.merged = merged;
            this.view = view;
            this.version = version;
        }

        @Override
        void release() {
            merged.close();
            version.release();
            view.close();
        }
    }

    DbCursor(ReadPath engine, List<InternalIterator> sources, MemStoreView view, Version version, long sequence,
            byte[] lower, byte[] upper) {
        this.engine = engine;
        this.merged = new MergingIterator(sources);
        this.sequence = sequence;
        this.lower = lower;
        this.upper = upper;
        this.pins = new Pins(merged, view, version);
        this.cleanable = Handles.register(this, pins);
    }

    @Override
    public void seek(byte[] target) {
        Objects.requireNonNull(target, "key");
        checkOpen();
        byte[] t = lower != null && Bytes.compare(target, lower) < 0 ? lower : target;
        merged.seek(t, InternalKeys.MAX_SEQUENCE);
        findVisible();
        engine.cursorSeeked(t);
    }

    @Override
    public void seekToFirst() {
        checkOpen();
        if (lower != null) {
            merged.seek(lower, InternalKeys.MAX_SEQUENCE);
        } else {
            merged.seekToFirst();
        }
        findVisible();
    }

    @Override
    public boolean isValid() {
        checkOpen();
        return key != null;
    }

    @Override
    public void next() {
        checkOpen();
        if (key == null) {
            throw new IllegalStateException("cursor is not positioned on an entry");
        }
        skipRestOf(key);
        findVisible();
    }

    /** Moves to the newest visible version of the next live key at or after the merged position. */
    private void findVisible() {
        key = null;
        value = null;
        while (merged.isValid()) {
            byte[] k = merged.key();
            if (upper != null && Bytes.compare(k, upper) >= 0) {
                return;
            }
            if (merged.sequence() > sequence) {
                merged.next();
                continue;
            }
            if (merged.kind() == InternalKeys.KIND_PUT) {
                key = k;
                value = merged.value();
                return;
            }
            skipRestOf(k);
        }
    }

    private void skipRestOf(byte[] k) {
        while (merged.isValid() && Arrays.equals(merged.key(), k)) {
            merged.next();
        }
    }

    @Override
    public byte[] key() {
        checkValid();
        return key.clone();
    }

    @Override
    public byte[] value() {
        checkValid();
        return value.clone();
    }

    private void checkValid() {
        checkOpen();
        if (key == null) {
            throw new IllegalStateException("cursor is not positioned on an entry");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new EngineClosedException("cursor is closed");
        }
        engine.checkOpen();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            key = null;
            value = null;
            pins.markExplicit();
            cleanable.clean();
        }
    }
}
