package io.bellows.engine.internal.db;

import io.bellows.engine.Cursor;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.Version;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
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
 *
 * <p>It reads the merge through views ({@link Slice}) and copies the entry it stands on into arrays of its
 * own, reused from entry to entry, so that a scan allocates only the arrays {@link #key()} and
 * {@link #value()} return.
 *
 * <p>Every method that moves the merge keeps the cursor reachable until it returns: a cursor the caller
 * drops while a call is under way ({@code db.cursor(ro).seekToFirst()}) would otherwise let the cleaner
 * release its version and close its table iterators (their read-ahead spans back to the pool) beneath it.
 */
final class DbCursor implements Cursor {
    /**
     * Entries stepped over one by one before the cursor seeks past the rest of a key's versions
     * (RocksDB's max_sequential_skip_in_iterations): a key updated thousands of times since the last
     * flush would otherwise cost every scan that crosses it thousands of steps (YCSB E after A's zipfian
     * updates). Counted per key, except on a turn of direction, which passes one key and what the walk
     * before it left behind.
     */
    static final int MAX_SEQUENTIAL_SKIP = 8;

    private final MergingIterator merged;
    private final long sequence;
    private final byte[] lower;
    private final byte[] upper;
    private final ReadPath engine;
    private final Pins pins;
    private final Cleaner.Cleanable cleanable;
    /** The entry shown is key[0, keyLength) = value[0, valueLength); none when keyLength is negative. */
    private byte[] key = new byte[32];
    private int keyLength = -1;
    private byte[] value = new byte[128];
    private int valueLength;
    /** The walk back's candidate (findPrevVisible), swapped with the entry shown when chosen. */
    private byte[] candidateKey = new byte[32];
    private byte[] candidateValue = new byte[128];
    private int candidateKeyLength;
    private int candidateValueLength;
    /** A deleted key, or one whose hidden versions are, being skipped past (findVisible). */
    private byte[] skipped = new byte[32];
    /** The user key whose entries the walk back (findPrevVisible) is passing. */
    private byte[] group = new byte[32];
    /** Which of the two positions above the merge is in; meaningful only while an entry is shown. */
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
        try {
            byte[] t = lower != null && Bytes.compare(target, lower) < 0 ? lower : target;
            merged.seek(t, InternalKeys.MAX_SEQUENCE);
            findVisible();
            engine.cursorSeeked(t);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void seekForPrev(byte[] target) {
        Objects.requireNonNull(target, "key");
        checkOpen();
        if (upper != null && Bytes.compare(target, upper) >= 0) {
            seekToLast();
            return;
        }
        try {
            // Sequence 0 is the last of the target's versions in internal order.
            merged.seekForPrev(target, 0);
            findPrevVisible();
            engine.cursorSeeked(target);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void seekToFirst() {
        checkOpen();
        try {
            seekStart();
            findVisible();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void seekToLast() {
        checkOpen();
        try {
            if (upper != null) {
                merged.seekForPrev(upper, InternalKeys.MAX_SEQUENCE);
            } else {
                merged.seekToLast();
            }
            findPrevVisible();
        } finally {
            Reference.reachabilityFence(this);
        }
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
        return keyLength >= 0;
    }

    @Override
    public void next() {
        checkValid();
        try {
            stepForward();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private void stepForward() {
        if (forward) {
            skipRestOf(key, keyLength);
        } else {
            // The merge stands before the key's entries, maybe before hidden versions of smaller keys too.
            if (merged.isValid()) {
                merged.next();
            } else {
                seekStart();
            }
            for (int steps = 0; merged.isValid() && merged.keySlice().compareTo(key, keyLength) <= 0; steps++) {
                if (steps == MAX_SEQUENTIAL_SKIP) {
                    merged.seek(Arrays.copyOf(key, keyLength), 0);
                } else {
                    merged.next();
                }
            }
        }
        findVisible();
    }

    @Override
    public void prev() {
        checkValid();
        try {
            stepBack();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private void stepBack() {
        if (forward) {
            // Back over the shown key's entries (newer hidden versions too): a few steps, then one seek.
            int steps = 0;
            do {
                if (++steps > MAX_SEQUENTIAL_SKIP) {
                    merged.seekForPrev(Arrays.copyOf(key, keyLength), InternalKeys.MAX_SEQUENCE);
                    break;
                }
                merged.prev();
            } while (merged.isValid() && merged.keySlice().compareTo(key, keyLength) >= 0);
        }
        findPrevVisible();
    }

    /** Moves to the newest visible version of the next live key at or after the merged position. */
    private void findVisible() {
        keyLength = -1;
        forward = true;
        int hidden = 0;
        int hiddenLength = 0;
        while (merged.isValid()) {
            Slice k = merged.keySlice();
            if (upper != null && k.compareTo(upper) >= 0) {
                return;
            }
            if (merged.sequence() > sequence) {
                if (hidden == 0 || !k.contentEquals(skipped, hiddenLength)) {
                    skipped = k.copyInto(skipped);
                    hiddenLength = k.length();
                    hidden = 1;
                    merged.next();
                } else if (++hidden > MAX_SEQUENTIAL_SKIP) {
                    // Everything before (k, sequence) in internal order is a newer, hidden version of k.
                    merged.seek(Arrays.copyOf(skipped, hiddenLength), sequence);
                    hidden = 0;
                } else {
                    merged.next();
                }
                continue;
            }
            hidden = 0;
            if (merged.kind() == InternalKeys.KIND_PUT) {
                Slice v = merged.valueSlice();
                key = k.copyInto(key);
                keyLength = k.length();
                value = v.copyInto(value);
                valueLength = v.length();
                return;
            }
            // The view ends with the next move: the deleted key is kept while its versions are skipped.
            skipped = k.copyInto(skipped);
            skipRestOf(skipped, k.length());
        }
    }

    /**
     * Moves back to the newest visible version of the previous live key before the merged position
     * (LevelDB's FindPrevUserEntry): walks back over a key's versions, oldest first, keeping the last
     * visible one, until a visible entry of a smaller key follows a live one. Every start position
     * stands at a key's oldest entry, so a key whose oldest entry is hidden has no visible version.
     */
    private void findPrevVisible() {
        forward = false;
        candidateKeyLength = -1;
        candidateValueLength = 0;
        int groupLength = -1;
        int passed = 0;
        while (merged.isValid()) {
            Slice at = merged.keySlice();
            if (lower != null && at.compareTo(lower) < 0) {
                break;
            }
            if (groupLength >= 0 && at.contentEquals(group, groupLength)) {
                if (++passed > MAX_SEQUENTIAL_SKIP) {
                    seekPastGroup(groupLength);
                    groupLength = -1;
                    continue;
                }
            } else {
                group = at.copyInto(group);
                groupLength = at.length();
                passed = 1;
            }
            if ((upper == null || at.compareTo(upper) < 0) && merged.sequence() <= sequence) {
                if (candidateKeyLength >= 0 && at.compareTo(candidateKey, candidateKeyLength) < 0) {
                    break;
                }
                takeCandidate(at);
            }
            merged.prev();
        }
        byte[] t = key;
        key = candidateKey;
        candidateKey = t;
        t = value;
        value = candidateValue;
        candidateValue = t;
        keyLength = candidateKeyLength;
        valueLength = candidateValueLength;
    }

    /** The merge's visible entry of {@code at} becomes the candidate, or clears it if a deletion. */
    private void takeCandidate(Slice at) {
        if (merged.kind() == InternalKeys.KIND_PUT) {
            Slice val = merged.valueSlice();
            candidateKey = at.copyInto(candidateKey);
            candidateKeyLength = at.length();
            candidateValue = val.copyInto(candidateValue);
            candidateValueLength = val.length();
        } else {
            candidateKeyLength = -1;
        }
    }

    /**
     * The backward walk has passed many entries of the key in {@link #group}: takes the key's newest
     * visible version from one forward seek, then stands before all of the key's entries, where the
     * walk would have arrived. The candidate is this key's or none (a visible entry of it, the first one
     * passed, would have ended the walk otherwise), unless the key has no visible version at all.
     */
    private void seekPastGroup(int length) {
        byte[] u = Arrays.copyOf(group, length);
        if (upper == null || Bytes.compare(u, upper) < 0) {
            merged.seek(u, sequence);
            if (merged.isValid() && merged.keySlice().contentEquals(u)) {
                takeCandidate(merged.keySlice());
            }
        }
        merged.seekForPrev(u, InternalKeys.MAX_SEQUENCE);
    }

    /** Moves the merge past the versions of {@code k[0, length)}: a few steps, then one seek. */
    private void skipRestOf(byte[] k, int length) {
        for (int steps = 0; merged.isValid() && merged.keySlice().contentEquals(k, length); steps++) {
            if (steps == MAX_SEQUENTIAL_SKIP) {
                // (k, 0) sorts after every version of k but one at sequence 0, which the next steps pass.
                merged.seek(Arrays.copyOf(k, length), 0);
            } else {
                merged.next();
            }
        }
    }

    @Override
    public byte[] key() {
        checkValid();
        return Arrays.copyOf(key, keyLength);
    }

    @Override
    public byte[] value() {
        checkValid();
        return Arrays.copyOf(value, valueLength);
    }

    private void checkValid() {
        checkOpen();
        if (keyLength < 0) {
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
            keyLength = -1;
            pins.markExplicit();
            cleanable.clean();
        }
    }
}
