package io.bellows.engine.internal.compaction.ptier;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * The merge-and-move pushes in progress: for each level being pushed, the tables it held when its
 * push began. PTierDB pushes all of them (§III.C); Bellows runs the push one chain of overlapping
 * tables at a time, each chain's merge-or-move decision unchanged (the rules only look inside a
 * chain), so that L0's merges and other levels' chains can run between them instead of waiting behind
 * a whole level.
 *
 * <p>Why a chain may go alone: every other table of the level that overlaps it either belongs to the
 * push (and is no older, or it would be in the chain) or reached the level after the push began from
 * the level above, so holds newer data; "newer above older" holds for every key. It would not hold for
 * the output of a merge within the level (old data in a table the push does not know), so a push
 * begins only when no table of its level is busy and no merge in place runs on a level while its push
 * is active; compactRange ends the push of a level it compacts. Not persisted: a reopen starts over
 * from the levels' sizes, with whole levels.
 */
final class LevelPushes {
    private final LongHashSet[] pushing;

    LevelPushes(int numLevels) {
        pushing = new LongHashSet[numLevels];
    }

    synchronized boolean active(int level) {
        return pushing[level] != null;
    }

    /**
     * Whether {@code level}'s push has tables left in {@code files} (the level now); ends it when none is.
     * A pick asks this before it scores the level, so a level over its target again begins its next
     * push in that same pick: a pick that only ended the old push would answer none, and the scheduler
     * would not ask again until the next flush.
     */
    synchronized boolean active(int level, List<FileMeta> files) {
        LongHashSet s = pushing[level];
        if (s == null) {
            return false;
        }
        for (FileMeta f : files) {
            if (s.contains(f.number)) {
                return true;
            }
        }
        pushing[level] = null;
        return false;
    }

    /** Forgets the push of {@code level}, if any. */
    synchronized void end(int level) {
        pushing[level] = null;
    }

    /** Starts pushing every table {@code files} of {@code level} holds now. */
    synchronized void start(int level, List<FileMeta> files) {
        pushing[level] = FileMeta.numbers(files);
    }

    /**
     * The tables of the push of {@code level} still in {@code files} (the level now), sorted as
     * {@code files} is; ends the push when none is left.
     */
    synchronized List<FileMeta> remaining(int level, List<FileMeta> files) {
        List<FileMeta> out = new ArrayList<>();
        LongHashSet s = pushing[level];
        if (s == null) {
            return out;
        }
        for (FileMeta f : files) {
            if (s.contains(f.number)) {
                out.add(f);
            }
        }
        if (out.isEmpty()) {
            pushing[level] = null;
        }
        return out;
    }
}
