package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.iter.ConcatenatingIterator;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Iterates one guarded level in key order, both ways: guards are disjoint and ordered, so the level is the
 * concatenation of its guards, and each guard is a merge of its (overlapping) tables (paper §3.4,
 * "Range Queries"). A guard's tables are opened only when the iteration reaches it.
 */
final class GuardLevelIterator extends ConcatenatingIterator {
    private final GuardLevel level;
    /** Indexes of the level's guards that hold tables, ascending. */
    private final int[] guards;
    private final TableSource tables;
    private final boolean fillCache;
    /** Whether a seek positions a guard's tables concurrently ({@link ParallelSeek}). */
    private final boolean parallel;
    /** The current guard's tables when they are seeked in parallel; null otherwise. */
    private List<ParallelSeek.PreSeekedIterator> seekers;

    GuardLevelIterator(GuardLevel level, TableSource tables, boolean fillCache, boolean parallel) {
        this.level = level;
        this.tables = tables;
        this.fillCache = fillCache;
        this.parallel = parallel;
        int n = 0;
        for (FileMeta[] t : level.tables) {
            n += t.length > 0 ? 1 : 0;
        }
        guards = new int[n];
        int i = 0;
        for (int g = 0; g < level.tables.length; g++) {
            if (level.tables[g].length > 0) {
                guards[i++] = g;
            }
        }
    }

    @Override
    protected int childCount() {
        return guards.length;
    }

    @Override
    protected int firstChildFor(byte[] userKey, long sequence) {
        int g = level.find(userKey);
        int lo = 0;
        int hi = guards.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (guards[mid] < g) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    protected int lastChildFor(byte[] userKey, long sequence) {
        int g = level.find(userKey);
        int lo = 0;
        int hi = guards.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (guards[mid] <= g) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    @Override
    protected InternalIterator openChild(int p) {
        seekers = null;
        return guardIterator(level.tables[guards[p]]);
    }

    @Override
    protected void seekChild(InternalIterator child, byte[] userKey, long sequence) {
        if (seekers != null) {
            ParallelSeek.seekAll(seekers, userKey, sequence, false);
        }
        child.seek(userKey, sequence);
    }

    @Override
    protected void seekChildForPrev(InternalIterator child, byte[] userKey, long sequence) {
        if (seekers != null) {
            ParallelSeek.seekAll(seekers, userKey, sequence, true);
        }
        child.seekForPrev(userKey, sequence);
    }

    private InternalIterator guardIterator(FileMeta[] files) {
        List<InternalIterator> its = new ArrayList<>(files.length);
        try {
            tables.addIterators(Arrays.asList(files), fillCache, its);
        } catch (IOException e) {
            throw new EngineIOException("reading a table of guard level " + level.level + ": " + e.getMessage(), e);
        }
        if (its.size() == 1) {
            return its.get(0);
        }
        if (parallel) {
            seekers = new ArrayList<>(its.size());
            for (InternalIterator it : its) {
                seekers.add(new ParallelSeek.PreSeekedIterator(it));
            }
            return new MergingIterator(seekers);
        }
        return new MergingIterator(its);
    }
}
