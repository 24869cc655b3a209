package io.bellows.engine.internal.compaction;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.version.Version;
import java.util.stream.IntStream;

/**
 * The engine-wide level shape that leveled and tiered schemes share: L0 is due at
 * {@code l0CompactionTrigger} tables, L<sub>i</sub> (i &ge; 1) at {@code maxBytesForLevelBase} ×
 * {@code levelSizeMultiplier}<sup>i-1</sup> bytes.
 */
public final class LevelTargets {
    private final int l0Trigger;
    private final long levelBase;
    private final int multiplier;

    public LevelTargets(EngineOptions o) {
        l0Trigger = o.l0CompactionTrigger();
        levelBase = o.maxBytesForLevelBase();
        multiplier = o.levelSizeMultiplier();
    }

    /** Target bytes of {@code level} (>= 1). */
    public long maxBytes(int level) {
        double b = levelBase;
        for (int i = 1; i < level; i++) {
            b *= multiplier;
        }
        return (long) b;
    }

    /**
     * The levels whose score is at least 1 (compaction due), most urgent first; {@code scores[level]}
     * for each level that may be compacted.
     */
    public static int[] due(double[] scores) {
        return IntStream.range(0, scores.length).filter(l -> scores[l] >= 1).boxed()
                .sorted((a, b) -> Double.compare(scores[b], scores[a])).mapToInt(Integer::intValue).toArray();
    }

    /** How far over its target {@code level} of {@code v} is; a compaction is due at >= 1. */
    public double score(Version v, int level) {
        if (level == 0) {
            return (double) v.files(0).size() / l0Trigger;
        }
        return (double) v.levelBytes(level) / maxBytes(level);
    }
}
