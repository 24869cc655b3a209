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
 *
 * <p>Both ways as LevelDB's DBIter: moving forward, the merge stands at the entry shown; moving
 * backward, it stands before every entry of the key shown (the versions of a key come newest first,
 * so the newest visible one is only known once the walk back has passed them all).
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
    /** Which of the two positions above the merge is in; meaningful only while {@link #key} is set. */
    private boolean forward = true;
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
    public void seekForPrev(byte[] target) {
        Objects.requireNonNull(target, "key");
        checkOpen();
        if (upper != null && Bytes.compare(target, upper) >= 0) {
            seekToLast();
            return;
        }
        // Sequence 0 is the last of the target's versions in internal order.
        merged.seekForPrev(target, 0);
        findPrevVisible();
        engine.cursorSeeked(target);
    }

    @Override
    public void seekToFirst() {
        checkOpen();
        seekStart();
        findVisible();
    }

    @Override
    public void seekToLast() {
        checkOpen();
        if (upper != null) {
            merged.seekForPrev(upper, InternalKeys.MAX_SEQUENCE);
        } else {
            merged.seekToLast();
        }
        findPrevVisible();
    }

    private void seekStart() {
        if (lower != null) {
            merged.seek(lower, InternalKeys.MAX_SEQUENCE);
        } else {
            merged.seekToFirst();
        }
    }

    @Override
    public boolean isValid() {
        checkOpen();
        return key != null;
    }

    @Override
    public void next() {
        checkValid();
        if (forward) {
            skipRestOf(key);
        } else {
            // The merge stands before the key's entries, maybe before hidden versions of smaller keys too.
            if (merged.isValid()) {
                merged.next();
            } else {
                seekStart();
            }
            while (merged.isValid() && Bytes.compare(merged.key(), key) <= 0) {
                merged.next();
            }
        }
        findVisible();
    }

    @Override
    public void prev() {
        checkValid();
        if (forward) {
            byte[] k = key;
            do {
                merged.prev();
            } while (merged.isValid() && Bytes.compare(merged.key(), k) >= 0);
        }
        findPrevVisible();
    }

    /** Moves to the newest visible version of the next live key at or after the merged position. */
    private void findVisible() {
        key = null;
        value = null;
        forward = true;
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

    /**
     * Moves back to the newest visible version of the previous live key before the merged position
     * (LevelDB's FindPrevUserEntry): walks back over a key's versions, oldest first, keeping the last
     * visible one, until a visible entry of a smaller key follows a live one.
     */
    private void findPrevVisible() {
        forward = false;
        byte[] k = null;
        byte[] v = null;
        while (merged.isValid()) {
            byte[] at = merged.key();
            if (lower != null && Bytes.compare(at, lower) < 0) {
                break;
            }
            if ((upper == null || Bytes.compare(at, upper) < 0) && merged.sequence() <= sequence) {
                if (k != null && Bytes.compare(at, k) < 0) {
                    break;
                }
                if (merged.kind() == InternalKeys.KIND_PUT) {
                    k = at;
                    v = merged.value();
                } else {
                    k = null;
                    v = null;
                }
            }
            merged.prev();
        }
        key = k;
        value = v;
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
