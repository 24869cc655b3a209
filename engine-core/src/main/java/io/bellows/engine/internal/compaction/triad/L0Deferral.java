package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.datasketches.hll.Union;

/**
 * TRIAD-DISK (paper §4.2, Algorithm 2 deferCompaction): decides whether the L0→L1 compaction the leveled
 * rules picked runs now. Its overlap ratio is 1 − unique keys / Σ keys over every input, L0 and the L1
 * tables it overlaps (§4.2 and Figure 5; the authors' code looks at L0 only), with Σ keys the exact key
 * counts of the tables and unique keys the estimate of the union of their sketches. Below
 * OVERLAP_RATIO_TH the compaction is deferred until L0 holds MAX_FILES_L0 tables, when it is forced.
 *
 * <p>Called under the engine lock ({@code pick}); the decision for one set of inputs is made and
 * counted once, since {@code pick} asks again after every flush and compaction.
 */
final class L0Deferral {
    /** What TRIAD-DISK did with an L0→L1 compaction. */
    enum Decision {
        /** Overlap below the threshold and L0 below its maximum: wait for more L0 tables. */
        DEFERRED,
        /** Overlap at or above the threshold. */
        RUN,
        /** Overlap below the threshold, but L0 holds its maximum. */
        FORCED,
        /** Some input has no sketch (written with TRIAD-DISK off): the overlap is unknown, the compaction runs. */
        UNSKETCHED
    }

    private final double threshold;
    private final int l0Max;
    private final Sketches sketches;
    private final long[] counts = new long[Decision.values().length];
    private List<Long> lastInputs = List.of();
    private Decision lastDecision;
    private double lastRatio = Double.NaN;

    L0Deferral(double threshold, int l0Max, Sketches sketches) {
        this.threshold = threshold;
        this.l0Max = l0Max;
        this.sketches = sketches;
    }

    /** {@code c} if it may run now, else null (deferred). */
    synchronized Compaction admit(Version v, Compaction c) {
        List<Long> inputs = new ArrayList<>(c.inputs().size());
        for (FileMeta f : c.inputFiles()) {
            inputs.add(f.number);
        }
        if (!inputs.equals(lastInputs)) {
            lastInputs = inputs;
            lastDecision = decide(c.inputFiles(), v.files(0).size());
            counts[lastDecision.ordinal()]++;
        }
        return lastDecision == Decision.DEFERRED ? null : c;
    }

    /** The decision for compacting {@code inputs} (L0 and its L1 overlaps) while L0 holds {@code l0Tables}. */
    Decision decide(List<FileMeta> inputs, int l0Tables) {
        List<TableSketch> found = new ArrayList<>(inputs.size());
        for (FileMeta f : inputs) {
            TableSketch s = sketches.get(f.number);
            if (s == null) {
                return Decision.UNSKETCHED;
            }
            found.add(s);
        }
        double ratio = overlapRatio(found);
        lastRatio = ratio;
        if (ratio >= threshold) {
            return Decision.RUN;
        }
        return l0Tables >= l0Max ? Decision.FORCED : Decision.DEFERRED;
    }

    /** 1 − estimated unique keys / Σ keys, clamped to [0, 1] (the estimate may exceed the sum slightly). */
    static double overlapRatio(List<TableSketch> tables) {
        long total = 0;
        Union union = new Union(TableSketch.LG_K);
        for (TableSketch s : tables) {
            total += s.keys;
            union.update(s.hll);
        }
        if (total == 0) {
            return 0;
        }
        double ratio = 1 - union.getEstimate() / total;
        return Math.max(0, Math.min(1, ratio));
    }

    /** Decisions by kind and the last overlap ratio computed (NaN before the first). */
    synchronized Map<String, Double> figures() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("l0.deferred", (double) counts[Decision.DEFERRED.ordinal()]);
        m.put("l0.run", (double) counts[Decision.RUN.ordinal()]);
        m.put("l0.forced", (double) counts[Decision.FORCED.ordinal()]);
        m.put("l0.unsketched", (double) counts[Decision.UNSKETCHED.ordinal()]);
        m.put("l0.overlap.ratio", lastRatio);
        return m;
    }
}
