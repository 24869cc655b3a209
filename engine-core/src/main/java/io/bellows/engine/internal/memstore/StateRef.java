package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.util.StripedPins;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The current {@link MemStoreState} of a MemStore: readers pin it without locks, changes replace it by
 * compare-and-set on a copy built from a pinned current state.
 */
final class StateRef {
    private final AtomicReference<MemStoreState> state;

    /** Takes over {@code initial}'s first reference, the one "being current" holds. */
    StateRef(MemStoreState initial) {
        this.state = new AtomicReference<>(initial);
    }

    /** The current state, unpinned: only for reads of its immutable fields that need no segment memory. */
    MemStoreState get() {
        return state.get();
    }

    /** Pins the current state (it may be replaced at once; a pinned state stays readable). */
    MemStoreState acquire() {
        while (true) {
            MemStoreState s = state.get();
            if (s.tryRetain()) {
                return s;
            }
        }
    }

    /**
     * The current state, pinned on the calling thread's {@code stripe} for a point read that ends on this
     * thread ({@link MemStoreState#unpin}); a state without recycled memory is returned as it is. The pin is
     * kept only if the state is still current after it was taken ({@link StripedPins}).
     */
    MemStoreState pin(int stripe) {
        while (true) {
            MemStoreState s = state.get();
            if (!s.counted()) {
                return s;
            }
            s.pin(stripe);
            if (state.get() == s) {
                return s;
            }
            s.unpin(stripe);
        }
    }

    /**
     * Installs {@code change(current)} by compare-and-set, retrying on races; returns the installed
     * state, or null if {@code change} returned null (the change no longer applies).
     */
    MemStoreState install(UnaryOperator<MemStoreState> change) {
        while (true) {
            MemStoreState cur = acquire();
            MemStoreState next;
            try {
                next = change.apply(cur);
            } catch (RuntimeException e) {
                cur.release();
                throw e;
            }
            if (next == null) {
                cur.release();
                return null;
            }
            if (state.compareAndSet(cur, next)) {
                // One for our pin, one for being current.
                cur.release();
                cur.release();
                return next;
            }
            next.release();
            cur.release();
        }
    }

    /** Drops the creator's reference to each memory of {@code s} once a state holds its own. */
    static void releaseCreator(Segment s) {
        for (SegmentMemory m : s.memory()) {
            m.release();
        }
    }
}
