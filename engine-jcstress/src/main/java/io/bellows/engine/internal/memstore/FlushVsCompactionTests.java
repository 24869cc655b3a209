package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The pipeline version check: a disk flush ({@code snapshot()}, which takes the whole pipeline and bumps
 * its version) races an in-memory compaction run that read the pipeline before. The compaction must
 * either finish before the flush takes the pipeline (the flush then takes its result) or give up its
 * result; never install it into the pipeline the flush emptied.
 *
 * <p>Before the actors: {@code k} written at sequences 1, 2 and 3, each its own pipeline segment;
 * published sequence 3 and no snapshot, so a compaction keeps only {@code k}@3.
 *
 * <p>r1: versions of {@code k} in the segments the flush took; r2: pipeline segments afterwards; r3:
 * versions of {@code k} a view shows afterwards (MemStore snapshot and pipeline); r4: chunks and off-heap
 * bytes still held once the snapshot is cleared and the MemStore closed.
 *
 * <p>Forbidden: r2 non-zero or r3 other than r1 (the compaction's output installed after the flush took
 * its inputs: its data would be flushed twice, and its memory outlive the flush), r1 other than 3 or the
 * policy's count after a compaction (data lost or taken twice), r4 non-zero (a leaked reference: the
 * abandoned output was never released).
 */
public final class FlushVsCompactionTests {
    private FlushVsCompactionTests() {}

    /** The state shared by the variants. */
    abstract static class Base {
        final MemStoreRig rig;

        Base(InMemoryCompaction policy, MemoryLayout layout, int pipelineSegments) {
            rig = new MemStoreRig(MemStoreRig.options(policy, layout, pipelineSegments), () -> 3, () -> new long[0]);
            rig.put(MemStoreRig.KEY, 1);
            rig.put(MemStoreRig.KEY, 2);
            rig.put(MemStoreRig.KEY, 3);
        }

        void compact() {
            rig.compactions.runAll();
        }

        void flush(IIII_Result r) {
            r.r1 = MemStoreRig.versions(rig.store.snapshot());
        }

        void check(IIII_Result r) {
            r.r2 = rig.store.stats().pipelineSegments;
            try (MemStoreView v = rig.store.view()) {
                r.r3 = MemStoreRig.versions(v);
            }
            rig.store.clearSnapshot();
            r.r4 = (int) (rig.closeAndCountChunks() + rig.offHeapBytesLeft());
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, EAGER compaction against a disk flush taking the pipeline")
    @Outcome(id = "3, 0, 3, 0", expect = ACCEPTABLE, desc = "the flush took the original segments; the compaction gave up")
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the compaction finished first; the flush took its result")
    @Outcome(expect = FORBIDDEN, desc = "compaction installed after the flush, data lost or doubled, or a leak")
    @State
    public static class OnHeapCompact extends Base {
        public OnHeapCompact() {
            super(InMemoryCompaction.EAGER, MemoryLayout.ON_HEAP, 4);
        }

        @Actor
        public void actor1() {
            compact();
        }

        @Actor
        public void actor2(IIII_Result r) {
            flush(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("On-heap MSLAB, BASIC merge (S = 1) against a disk flush taking the pipeline")
    @Outcome(id = "3, 0, 3, 0", expect = ACCEPTABLE, desc = "either order: a merge keeps every version")
    @Outcome(expect = FORBIDDEN, desc = "merge installed after the flush, data lost or doubled, or a leak")
    @State
    public static class OnHeapMerge extends Base {
        public OnHeapMerge() {
            super(InMemoryCompaction.BASIC, MemoryLayout.ON_HEAP, 1);
        }

        @Actor
        public void actor1() {
            compact();
        }

        @Actor
        public void actor2(IIII_Result r) {
            flush(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Off-heap, EAGER compaction against a disk flush taking the pipeline")
    @Outcome(id = "3, 0, 3, 0", expect = ACCEPTABLE, desc = "the flush took the original segments; the compaction gave up")
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the compaction finished first; the flush took its result")
    @Outcome(expect = FORBIDDEN, desc = "compaction installed after the flush, data lost or doubled, or a leak")
    @State
    public static class OffHeapCompact extends Base {
        public OffHeapCompact() {
            super(InMemoryCompaction.EAGER, MemoryLayout.OFF_HEAP, 4);
        }

        @Actor
        public void actor1() {
            compact();
        }

        @Actor
        public void actor2(IIII_Result r) {
            flush(r);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }
}
