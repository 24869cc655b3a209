package io.bellows.engine.internal.compaction;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.iter.ConcatenatingIterator;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;

/**
 * Iterates a run of disjoint tables sorted by key as one sequence, both ways, opening each table only when the
 * iteration reaches it (LevelDB's two-level iterator over a level). Tables never share a user key.
 */
public final class LevelIterator extends ConcatenatingIterator {
    private final List<FileMeta> files;
    private final TableSource tables;
    private final boolean fillCache;

    public LevelIterator(List<FileMeta> files, TableSource tables, boolean fillCache) {
        this.files = files;
        this.tables = tables;
        this.fillCache = fillCache;
    }

    @Override
    protected int childCount() {
        return files.size();
    }

    @Override
    protected int firstChildFor(byte[] userKey, long sequence) {
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            FileMeta f = files.get(mid);
            if (InternalKeys.compare(f.largestKey, f.largestSeq, userKey, sequence) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    protected int lastChildFor(byte[] userKey, long sequence) {
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            FileMeta f = files.get(mid);
            if (InternalKeys.compare(f.smallestKey, f.smallestSeq, userKey, sequence) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    @Override
    protected InternalIterator openChild(int i) {
        try {
            return tables.iterator(files.get(i), fillCache);
        } catch (IOException e) {
            throw new EngineIOException("reading table " + files.get(i).number + ": " + e.getMessage(), e);
        }
    }
}
