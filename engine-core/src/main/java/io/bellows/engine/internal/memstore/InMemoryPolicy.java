package io.bellows.engine.internal.memstore;

import io.bellows.engine.InMemoryCompaction;

/**
 * What an in-memory compaction run does to the pipeline, per policy (Accordion §3.2). A pure function
 * of the pipeline's shape and ADAPTIVE's estimates, so each policy's decisions are testable alone.
 */
final class InMemoryPolicy {
    /** ADAPTIVE's throttle starts here after each disk flush. */
    static final double INITIAL_THROTTLE = 0.5;
    /** ADAPTIVE's throttle grows by this factor with each in-memory flush. */
    static final double THROTTLE_GROWTH = 1.02;

    enum Action {
        /** Nothing to do. */
        NONE,
        /** Replace one skiplist segment of the pipeline by a flat index over the same cells. */
        FLATTEN,
        /** Merge all pipeline segments' indices into one flat segment, keeping every version. */
        MERGE,
        /** Merge all pipeline segments into one, dropping versions no reader can see, into fresh memory. */
        COMPACT
    }

    private InMemoryPolicy() {}

    /**
     * @param segments pipeline segments
     * @param unflattened whether some pipeline segment still has a skiplist index
     * @param limit S, the pipeline bound
     * @param uniqueness ADAPTIVE's u: unique keys / cells at the last merge (1 when unknown)
     * @param throttle ADAPTIVE's t
     * @param threshold ADAPTIVE's R
     * @param draw uniform in [0, 1): ADAPTIVE compacts when it is below t
     */
    static Action decide(InMemoryCompaction policy, int segments, boolean unflattened, int limit, double uniqueness,
            double throttle, double threshold, double draw) {
        if (segments == 0) {
            return Action.NONE;
        }
        switch (policy) {
            case EAGER:
                return segments > 1 || unflattened ? Action.COMPACT : Action.NONE;
            case ADAPTIVE:
                if (!unflattened && segments <= limit) {
                    return Action.NONE;
                }
                if (1 - uniqueness > threshold && draw < throttle) {
                    return Action.COMPACT;
                }
                return basic(segments, unflattened, limit);
            case BASIC:
                return basic(segments, unflattened, limit);
            default:
                throw new IllegalArgumentException("policy " + policy + " does not compact in memory");
        }
    }

    private static Action basic(int segments, boolean unflattened, int limit) {
        if (segments > limit) {
            return Action.MERGE;
        }
        return unflattened ? Action.FLATTEN : Action.NONE;
    }
}
