package io.bellows.engine.internal.compaction;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.version.Version;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The engine-wide level shape that leveled and tiered schemes share: L0 is due at
 * {@code l0CompactionTrigger} tables, L<sub>i</sub> (i &ge; 1) at a target size. Two ways to set the
 * targets:
 * <ul>
 *   <li>static: L<sub>i</sub>'s target is {@code maxBytesForLevelBase} × {@code levelSizeMultiplier}<sup>i-1</sup>
 *       and L0 compacts into L1;
 *   <li>dynamic (RocksDB's {@code level_compaction_dynamic_level_bytes}, {@link #shape}): the largest
 *       level's actual size is the last level's target and each level above has a multiplier-th of the
 *       one below. Levels whose target would fall below the base size stay empty and L0 compacts
 *       straight into the first level that remains, the base level, so that the last level holds
 *       about multiplier / (multiplier + 1) of the data whatever the store's size.
 * </ul>
 */
public final class LevelTargets {
    private final int l0Trigger;
    private final long levelBase;
    private final int multiplier;
    private final int numLevels;
    private final boolean dynamic;

    /** Static targets. */
    public LevelTargets(EngineOptions o) {
        this(o, false);
    }

    public LevelTargets(EngineOptions o, boolean dynamic) {
        l0Trigger = o.l0CompactionTrigger();
        levelBase = o.maxBytesForLevelBase();
        multiplier = o.levelSizeMultiplier();
        numLevels = o.numLevels();
        this.dynamic = dynamic;
    }

    /** Static target bytes of {@code level} (>= 1). */
    public long maxBytes(int level) {
        double b = levelBase;
        for (int i = 1; i < level; i++) {
            b *= multiplier;
        }
        return (long) b;
    }

    /**
     * The levels whose score is at least 1 (compaction due), most urgent first, equal scores upper level
     * first; {@code scores[level]} for each level that may be compacted.
     */
    public static int[] due(double[] scores) {
        return IntStream.range(0, scores.length).filter(l -> scores[l] >= 1).boxed()
                .sorted((a, b) -> Double.compare(scores[b], scores[a])).mapToInt(Integer::intValue).toArray();
    }

    /** How far over its static target {@code level} of {@code v} is; a compaction is due at >= 1. */
    public double score(Version v, int level) {
        if (level == 0) {
            return l0Score(v);
        }
        return (double) v.levelBytes(level) / maxBytes(level);
    }

    private double l0Score(Version v) {
        return (double) v.files(0).size() / l0Trigger;
    }

    /** The targets and base level of {@code v}: static ones, or computed from {@code v}'s sizes in dynamic mode. */
    public Shape shape(Version v) {
        long[] bytes = new long[numLevels];
        for (int level = 0; level < numLevels; level++) {
            bytes[level] = v.levelBytes(level);
        }
        long[] max = new long[numLevels];
        if (!dynamic) {
            for (int level = 1; level < numLevels; level++) {
                max[level] = maxBytes(level);
            }
            return new Shape(l0Score(v), 1, -1, max, bytes);
        }
        return dynamicShape(l0Score(v), bytes);
    }

    /** RocksDB's VersionStorageInfo::CalculateBaseBytes for dynamic level bytes, from the level sizes. */
    private Shape dynamicShape(double l0Score, long[] bytes) {
        long largest = 0;
        int firstNonEmpty = -1;
        for (int level = 1; level < numLevels; level++) {
            if (bytes[level] > 0 && firstNonEmpty < 0) {
                firstNonEmpty = level;
            }
            largest = Math.max(largest, bytes[level]);
        }
        long[] max = new long[numLevels];
        // Levels above the base are never compaction inputs: they are empty (the base is at or above the first
        // non-empty level).
        Arrays.fill(max, Long.MAX_VALUE);
        if (largest == 0) {
            // Nothing below L0 yet: L0 compacts straight into the last level.
            return new Shape(l0Score, numLevels - 1, -1, max, bytes);
        }
        long baseMax = levelBase;
        long baseMin = levelBase / multiplier;
        long size = largest;
        int lowestUnnecessary = -1;
        for (int level = numLevels - 2; level >= firstNonEmpty; level--) {
            size /= multiplier;
            if (lowestUnnecessary < 0 && size <= baseMin) {
                lowestUnnecessary = level;
            }
        }
        int base = firstNonEmpty;
        long baseSize;
        if (size <= baseMin) {
            // More levels hold data than the data needs: the first of them stays the base, at the smallest
            // size a base may have, and the levels above the last level's share drain downwards.
            baseSize = baseMin + 1;
        } else {
            while (base > 1 && size > baseMax) {
                base--;
                size /= multiplier;
            }
            baseSize = Math.min(Math.max(1, size), baseMax);
        }
        long target = baseSize;
        for (int level = base; level < numLevels; level++) {
            if (level > base) {
                target = target > Long.MAX_VALUE / multiplier ? Long.MAX_VALUE : target * multiplier;
            }
            // No target below the base size: a level smaller than L0 would win every score against it.
            max[level] = Math.max(target, baseMax);
        }
        return new Shape(l0Score, base, lowestUnnecessary, max, bytes);
    }

    /**
     * One version's level targets. {@link #baseLevel} is where L0 compacts to; the levels between L0 and
     * it are empty.
     */
    public static final class Shape {
        private final double l0Score;
        private final int baseLevel;
        private final int lowestUnnecessary;
        private final long[] maxBytes;
        private final long[] bytes;

        Shape(double l0Score, int baseLevel, int lowestUnnecessary, long[] maxBytes, long[] bytes) {
            this.l0Score = l0Score;
            this.baseLevel = baseLevel;
            this.lowestUnnecessary = lowestUnnecessary;
            this.maxBytes = maxBytes;
            this.bytes = bytes;
        }

        /** The level L0 compacts into. */
        public int baseLevel() {
            return baseLevel;
        }

        /** Target bytes of {@code level} (>= 1); Long.MAX_VALUE above the base level. */
        public long maxBytes(int level) {
            return maxBytes[level];
        }

        /**
         * How far over its target {@code level} is; a compaction is due at >= 1. A non-empty level at or
         * above the lowest unnecessary one (a level the data no longer needs, after the store shrank or
         * when a static store is reopened in dynamic mode) scores at least 1, so that it drains downwards
         * (RocksDB 8.2's rule); exactly 1, so that {@link #due}'s order puts it after L0 and every level
         * over its target, upper levels first.
         */
        public double score(int level) {
            if (level == 0) {
                return l0Score;
            }
            double s = (double) bytes[level] / maxBytes[level];
            return bytes[level] > 0 && level <= lowestUnnecessary ? Math.max(s, 1) : s;
        }

        /**
         * RocksDB's estimate of the bytes compaction must still write to bring every level within its
         * target (VersionStorageInfo::EstimateCompactionBytesNeeded): when L0 is due, all of L0 and the
         * base level; then, level by level, what exceeds the target (with what the level above pushes into
         * it) times the fan-out into the next level, 1 + the next level's size / this one's.
         */
        public long pendingCompactionBytes() {
            double pending = 0;
            long pushed = 0;
            if (l0Score >= 1) {
                pushed = bytes[0];
                pending = bytes[0];
            }
            for (int level = baseLevel; level < bytes.length - 1; level++) {
                long size = bytes[level];
                if (level == baseLevel && l0Score >= 1) {
                    pending += size;
                }
                size += pushed;
                pushed = 0;
                if (size > maxBytes[level]) {
                    pushed = size - maxBytes[level];
                    long next = bytes[level + 1];
                    if (next > 0) {
                        pending += pushed * ((double) next / size + 1);
                    }
                }
            }
            return (long) Math.min(pending, Long.MAX_VALUE);
        }
    }
}
