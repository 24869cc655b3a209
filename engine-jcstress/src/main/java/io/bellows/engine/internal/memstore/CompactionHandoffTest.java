package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The hand-off between a finishing compaction run and the writer's next push
 * ({@code CompactingMemStore.compactionRun} and {@code scheduleCompaction}): at most one run is
 * scheduled at a time, and a segment pushed while a run is finishing is never left behind. The run
 * clears its flag and then looks at the pipeline once more; the writer installs its push and then tries
 * to set the flag. With sequentially consistent volatiles one of the two sees the other.
 *
 * <p>Before the actors: EAGER; {@code k}@1 and {@code k}@2 pushed, one run queued. One actor runs that run
 * (and only it: the runs it queues stay queued); the other pushes {@code k}@3.
 *
 * <p>r1: runs queued afterwards; r2: pipeline segments afterwards. Forbidden: (0, 2), the pushed segment
 * left behind with no run to compact it (until some later push); r1 = 2, two runs scheduled at once.
 */
@JCStressTest
@Description("A push racing the end of a compaction run is always compacted by some run")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the run compacted the pushed segment too")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the push came after the run's last step; a new run is queued")
@Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "a run queued that will find nothing to do")
@Outcome(expect = FORBIDDEN, desc = "pushed segment left behind, or two runs scheduled")
@State
public class CompactionHandoffTest {
    final MemStoreRig rig = new MemStoreRig(MemStoreRig.options(InMemoryCompaction.EAGER, MemoryLayout.ON_HEAP, 4),
            () -> 3, () -> new long[0]);

    public CompactionHandoffTest() {
        rig.put(MemStoreRig.KEY, 1);
        rig.put(MemStoreRig.KEY, 2);
    }

    @Actor
    public void compactionThread() {
        rig.compactions.runOne();
    }

    @Actor
    public void writer() {
        rig.put(MemStoreRig.KEY, 3);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = rig.compactions.queued();
        r.r2 = rig.store.stats().pipelineSegments;
        rig.store.close();
    }
}
