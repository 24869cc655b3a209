package io.bellows.engine.internal.memstore;

import static io.bellows.engine.internal.memstore.InMemoryPolicy.Action.COMPACT;
import static io.bellows.engine.internal.memstore.InMemoryPolicy.Action.FLATTEN;
import static io.bellows.engine.internal.memstore.InMemoryPolicy.Action.MERGE;
import static io.bellows.engine.internal.memstore.InMemoryPolicy.Action.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.InMemoryCompaction;
import org.junit.jupiter.api.Test;

class InMemoryPolicyTest {
    private static InMemoryPolicy.Action decide(InMemoryCompaction p, int segments, boolean unflattened, double u,
            double t, double draw) {
        return InMemoryPolicy.decide(p, segments, unflattened, 2, u, t, 0.5, draw);
    }

    @Test
    void basicFlattensUntilThePipelineExceedsItsBoundThenMerges() {
        assertEquals(NONE, decide(InMemoryCompaction.BASIC, 0, false, 1, 0.5, 0));
        assertEquals(FLATTEN, decide(InMemoryCompaction.BASIC, 1, true, 1, 0.5, 0));
        assertEquals(FLATTEN, decide(InMemoryCompaction.BASIC, 2, true, 1, 0.5, 0));
        assertEquals(NONE, decide(InMemoryCompaction.BASIC, 2, false, 1, 0.5, 0));
        assertEquals(MERGE, decide(InMemoryCompaction.BASIC, 3, true, 1, 0.5, 0));
        assertEquals(MERGE, decide(InMemoryCompaction.BASIC, 3, false, 0, 1, 0), "BASIC never drops data");
    }

    @Test
    void eagerCompactsEveryPushIntoOneSegment() {
        assertEquals(NONE, decide(InMemoryCompaction.EAGER, 0, false, 1, 0.5, 0));
        assertEquals(COMPACT, decide(InMemoryCompaction.EAGER, 1, true, 1, 0.5, 0.99));
        assertEquals(COMPACT, decide(InMemoryCompaction.EAGER, 2, false, 1, 0.5, 0.99));
        assertEquals(NONE, decide(InMemoryCompaction.EAGER, 1, false, 1, 0.5, 0.99));
    }

    @Test
    void adaptiveCompactsWithProbabilityThrottleOnlyAboveTheRedundancyThreshold() {
        // u = 0.4: redundancy 0.6 > R = 0.5; the draw decides against t.
        assertEquals(COMPACT, decide(InMemoryCompaction.ADAPTIVE, 1, true, 0.4, 0.5, 0.49));
        assertEquals(FLATTEN, decide(InMemoryCompaction.ADAPTIVE, 1, true, 0.4, 0.5, 0.51));
        assertEquals(MERGE, decide(InMemoryCompaction.ADAPTIVE, 3, false, 0.4, 0.5, 0.51));
        assertEquals(COMPACT, decide(InMemoryCompaction.ADAPTIVE, 3, false, 0.4, 0.9, 0.8), "t grows with pushes");
        // Redundancy at or below R: BASIC behaviour whatever the draw.
        assertEquals(FLATTEN, decide(InMemoryCompaction.ADAPTIVE, 1, true, 0.5, 1, 0));
        assertEquals(MERGE, decide(InMemoryCompaction.ADAPTIVE, 3, true, 1, 1, 0), "unknown u counts as unique");
        // Nothing new and within the bound: nothing to do.
        assertEquals(NONE, decide(InMemoryCompaction.ADAPTIVE, 2, false, 0, 1, 0));
    }

    @Test
    void noneIsNotACompactingPolicy() {
        assertThrows(IllegalArgumentException.class, () -> decide(InMemoryCompaction.NONE, 1, true, 1, 0.5, 0));
    }
}
