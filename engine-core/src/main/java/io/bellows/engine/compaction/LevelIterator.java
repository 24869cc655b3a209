package io.bellows.engine.compaction;

import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.InternalKeys;
import io.bellows.engine.version.FileMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Iterates a run of disjoint tables sorted by key as one sequence, opening each table only when the
 * iteration reaches it (LevelDB's two-level iterator over a level). Tables never share a user key.
 */
public final class LevelIterator implements InternalIterator {
    private final List<FileMeta> files;
    private final TableSource tables;
    private final boolean fillCache;
    private int index = -1;
    private InternalIterator current;

    public LevelIterator(List<FileMeta> files, TableSource tables, boolean fillCache) {
        this.files = files;
        this.tables = tables;
        this.fillCache = fillCache;
    }

    @Override
    public boolean isValid() {
        return current != null && current.isValid();
    }

    @Override
    public void seekToFirst() {
        open(0);
        if (current != null) {
            current.seekToFirst();
        }
        skipExhausted();
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
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
        open(lo);
        if (current != null) {
            current.seek(userKey, sequence);
        }
        skipExhausted();
    }

    @Override
    public void next() {
        current.next();
        skipExhausted();
    }

    private void skipExhausted() {
        while (current != null && !current.isValid()) {
            open(index + 1);
            if (current != null) {
                current.seekToFirst();
            }
        }
    }

    private void open(int i) {
        if (i == index && current != null) {
            return;
        }
        if (current != null) {
            current.close();
            current = null;
        }
        index = i;
        if (i < files.size()) {
            try {
                current = tables.iterator(files.get(i), fillCache);
            } catch (IOException e) {
                throw new UncheckedIOException("reading table " + files.get(i).number, e);
            }
        }
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public long sequence() {
        return current.sequence();
    }

    @Override
    public int kind() {
        return current.kind();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
