package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The pipeline version swap ({@link Pipeline}, {@code CompactingMemStore.swap}): an in-memory
 * compaction run (flatten, merge or compact, by policy) replaces pipeline segments while a reader reads
 * through one view. Then the writer's next write group (key {@code j}) takes a chunk from the pool,
 * which is one a compacted-away segment gave back if its memory was released.
 *
 * <p>Before the actors: {@code k} written at sequences 1, 2 and 3, each pushed into the pipeline as its
 * own segment; published sequence 3, one live snapshot at 1. A compaction therefore keeps {@code k}@3 (the
 * newest) and {@code k}@1 (the snapshot's) and drops {@code k}@2; flattening and merging keep all three.
 *
 * <p>r1: what the view shows for {@code k} at the snapshot's sequence 1; r2: at the newest sequence (the
 * sequence that version has when its bytes are its own, 0 for none, -1 for bytes that are not its own);
 * r3: versions of {@code k} over all of the view's segments (-1 if one has foreign bytes); r4: chunks and
 * off-heap bytes still held after the MemStore is closed.
 *
 * <p>Forbidden: r1 other than 1 (the snapshot lost its version), r2 other than 3, r3 other than 3 (before
 * the swap) or the policy's count after it (a view that lists a segment twice, or none of an old
 * segment and its replacement, or reads a chunk that was given back), r4 non-zero (a leaked reference).
 */
public final class PipelineSwapTests {
    private PipelineSwapTests() {}

    /** The state shared by the variants. */
    abstract static class Base {
        final MemStoreRig rig;

        Base(InMemoryCompaction policy, MemoryLayout layout, int pipelineSegments) {
            long[] snapshots = {1};
            rig = new MemStoreRig(MemStoreRig.options(policy, layout, pipelineSegments), () -> 3, () -> snapshots);
            rig.put(MemStoreRig.KEY, 1);
            rig.put(MemStoreRig.KEY, 2);
            rig.put(MemStoreRig.KEY, 3);
        }

        void compactThenWrite() {
            rig.compactions.runAll();
            rig.put(MemStoreRig.OTHER, 4);
        }

        void reader(IIII_Result r) {
            try (MemStoreView v = rig.store.view()) {
                r.r1 = MemStoreRig.read(v, 1);
                r.r2 = MemStoreRig.read(v, InternalKeys.MAX_SEQUENCE);
                r.r3 = MemStoreRig.versions(v);
            }
        }

        void check(IIII_Result r) {
            r.r4 = (int) (rig.closeAndCountChunks() + rig.offHeapBytesLeft());
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, EAGER compaction into fresh chunks while a view reads the pipeline")
    @Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "view before the swap")
    @Outcome(id = "1, 3, 2, 0", expect = ACCEPTABLE, desc = "view after the swap: k@2 dropped, k@1 kept for the snapshot")
    @Outcome(expect = FORBIDDEN, desc = "lost or doubled segment, released chunk read, or leaked reference")
    @State
    public static class OnHeapCompact extends Base {
        public OnHeapCompact() {
            super(InMemoryCompaction.EAGER, MemoryLayout.ON_HEAP, 4);
        }

        @Actor
        public void actor1() {
            compactThenWrite();
        }

        @Actor
        public void actor2(IIII_Result r) {
            reader(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, BASIC merge (S = 1) over the same chunks while a view reads the pipeline")
    @Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "view before or after the swap: a merge keeps every version")
    @Outcome(expect = FORBIDDEN, desc = "lost or doubled segment, released chunk read, or leaked reference")
    @State
    public static class OnHeapMerge extends Base {
        public OnHeapMerge() {
            super(InMemoryCompaction.BASIC, MemoryLayout.ON_HEAP, 1);
        }

        @Actor
        public void actor1() {
            compactThenWrite();
        }

        @Actor
        public void actor2(IIII_Result r) {
            reader(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, BASIC flattening (S = 4) segment by segment while a view reads the pipeline")
    @Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "view before, between or after the three swaps")
    @Outcome(expect = FORBIDDEN, desc = "lost or doubled segment, released chunk read, or leaked reference")
    @State
    public static class OnHeapFlatten extends Base {
        public OnHeapFlatten() {
            super(InMemoryCompaction.BASIC, MemoryLayout.ON_HEAP, 4);
        }

        @Actor
        public void actor1() {
            compactThenWrite();
        }

        @Actor
        public void actor2(IIII_Result r) {
            reader(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Off-heap, EAGER compaction into a serialized segment while a view reads the pipeline")
    @Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "view before the swap")
    @Outcome(id = "1, 3, 2, 0", expect = ACCEPTABLE, desc = "view after the swap: k@2 dropped, k@1 kept for the snapshot")
    @Outcome(expect = FORBIDDEN, desc = "lost or doubled segment, released chunk read, or leaked reference")
    @State
    public static class OffHeapCompact extends Base {
        public OffHeapCompact() {
            super(InMemoryCompaction.EAGER, MemoryLayout.OFF_HEAP, 4);
        }

        @Actor
        public void actor1() {
            compactThenWrite();
        }

        @Actor
        public void actor2(IIII_Result r) {
            reader(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Off-heap, BASIC merge (S = 1) into a serialized index over the same data chunks")
    @Outcome(id = "1, 3, 3, 0", expect = ACCEPTABLE, desc = "view before or after the swap: a merge keeps every version")
    @Outcome(expect = FORBIDDEN, desc = "lost or doubled segment, released chunk read, or leaked reference")
    @State
    public static class OffHeapMerge extends Base {
        public OffHeapMerge() {
            super(InMemoryCompaction.BASIC, MemoryLayout.OFF_HEAP, 1);
        }

        @Actor
        public void actor1() {
            compactThenWrite();
        }

        @Actor
        public void actor2(IIII_Result r) {
            reader(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }
}
