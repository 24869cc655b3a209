package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.key.InternalKeys;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The MemStore state CAS ({@link StateRef}, {@link MemStoreState}): a reader pins the current state
 * ({@code view()}) while the flush swaps it twice ({@code snapshot()}, then {@code clearSnapshot()} once
 * the table is installed) and the writer's next write group takes a chunk from the pool, which is the
 * chunk the flushed segment gave back if its memory was released. Key {@code k} was written at sequence
 * 1; the write after the flush is {@code k} at sequence 2, into the same offsets of a recycled chunk.
 *
 * <p>r1: what the reader's view shows for {@code k} (1 or 2: that version with its own bytes; 0: no
 * version; -1: a version whose bytes are not its own). r2: chunks the pool still counts as held once the
 * MemStore is closed. r3: off-heap bytes still allocated then (0 on-heap).
 *
 * <p>Forbidden: r1 = -1, the reader pinned a state whose segment memory had already gone back to the pool
 * (a pin that succeeded after the count reached zero, or a release while a view was open); r2 or r3
 * non-zero, a reference leaked. A reference released twice fails the actor (IllegalStateException).
 */
public final class StateSwapTests {
    private StateSwapTests() {}

    /** The state shared by the variants: {@code k}@1 written, then the actors. */
    abstract static class Base {
        final MemStoreRig rig;

        Base(InMemoryCompaction policy, MemoryLayout layout) {
            rig = new MemStoreRig(MemStoreRig.options(policy, layout, 4), () -> 10, () -> new long[0]);
            rig.put(MemStoreRig.KEY, 1);
        }

        void reader(III_Result r) {
            r.r1 = rig.read(InternalKeys.MAX_SEQUENCE);
        }

        void flushThenWrite() {
            rig.store.snapshot();
            rig.store.clearSnapshot();
            rig.put(MemStoreRig.KEY, 2);
        }

        void check(III_Result r) {
            r.r2 = (int) rig.closeAndCountChunks();
            r.r3 = (int) rig.offHeapBytesLeft();
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, EAGER: a view pinned across a flush never reads a recycled chunk")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "view before clearSnapshot: the flushed version, intact")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "view between clearSnapshot and the next write")
    @Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "view after the next write")
    @Outcome(expect = FORBIDDEN, desc = "read a released chunk, or leaked a reference")
    @State
    public static class OnHeapEager extends Base {
        public OnHeapEager() {
            super(InMemoryCompaction.EAGER, MemoryLayout.ON_HEAP);
        }

        @Actor
        public void actor1(III_Result r) {
            reader(r);
        }

        @Actor
        public void actor2() {
            flushThenWrite();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("On-heap, NONE (DefaultMemStore, arena skiplist): a view pinned across a flush never reads a recycled chunk")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "view before clearSnapshot: the flushed version, intact")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "view between clearSnapshot and the next write")
    @Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "view after the next write")
    @Outcome(expect = FORBIDDEN, desc = "read a released chunk, or leaked a reference")
    @State
    public static class OnHeapNone extends Base {
        public OnHeapNone() {
            super(InMemoryCompaction.NONE, MemoryLayout.ON_HEAP);
        }

        @Actor
        public void actor1(III_Result r) {
            reader(r);
        }

        @Actor
        public void actor2() {
            flushThenWrite();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Off-heap, NONE (DefaultMemStore): a view pinned across a flush never reads a recycled chunk")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "view before clearSnapshot: the flushed version, intact")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "view between clearSnapshot and the next write")
    @Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "view after the next write")
    @Outcome(expect = FORBIDDEN, desc = "read a released chunk, or leaked a reference")
    @State
    public static class OffHeapNone extends Base {
        public OffHeapNone() {
            super(InMemoryCompaction.NONE, MemoryLayout.OFF_HEAP);
        }

        @Actor
        public void actor1(III_Result r) {
            reader(r);
        }

        @Actor
        public void actor2() {
            flushThenWrite();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Off-heap, EAGER: a view pinned across a flush never reads a recycled chunk")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "view before clearSnapshot: the flushed version, intact")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "view between clearSnapshot and the next write")
    @Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "view after the next write")
    @Outcome(expect = FORBIDDEN, desc = "read a released chunk, or leaked a reference")
    @State
    public static class OffHeapEager extends Base {
        public OffHeapEager() {
            super(InMemoryCompaction.EAGER, MemoryLayout.OFF_HEAP);
        }

        @Actor
        public void actor1(III_Result r) {
            reader(r);
        }

        @Actor
        public void actor2() {
            flushThenWrite();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
