package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.wal.LogPositions;
import java.io.IOException;

/**
 * The entries of a CL-table in internal-key order, through its sorted index: keys, sequences and kinds come
 * from the index, a value is read from the log (and verified) only when asked for, so merges and cursors
 * that skip a shadowed version never read it. Also moves backwards ({@code seekToLast}, {@code prev},
 * {@code seekForPrev}).
 */
final class ClTableIterator implements InternalIterator {
    private final ClTableReader table;
    private final boolean fillCache;
    private final LogPositions.Op op = new LogPositions.Op();
    private int i = -1;
    private int loaded = -1;
    private byte[] key;
    private byte[] value;

    ClTableIterator(ClTableReader table, boolean fillCache) {
        this.table = table;
        this.fillCache = fillCache;
    }

    @Override
    public boolean isValid() {
        return i >= 0 && i < table.size();
    }

    @Override
    public void seekToFirst() {
        i = 0;
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        i = table.lowerBound(userKey, sequence);
    }

    @Override
    public void next() {
        i++;
    }

    /** Positions at the last entry. */
    @Override
    public void seekToLast() {
        i = table.size() - 1;
    }

    /** Moves to the entry before this one. */
    @Override
    public void prev() {
        i--;
    }

    /** Positions at the last entry at or before {@code (userKey, sequence)} in internal order. */
    @Override
    public void seekForPrev(byte[] userKey, long sequence) {
        i = table.upperBound(userKey, sequence) - 1;
    }

    private void load() {
        if (loaded == i) {
            return;
        }
        key = table.key(i);
        value = null;
        loaded = i;
    }

    @Override
    public byte[] key() {
        load();
        return key;
    }

    @Override
    public long sequence() {
        return table.sequence(i);
    }

    @Override
    public int kind() {
        return table.kind(i);
    }

    @Override
    public byte[] value() {
        load();
        if (value == null) {
            try {
                value = table.value(i, op, fillCache);
            } catch (IOException e) {
                throw new EngineIOException("reading CL-table " + table.path(), e);
            }
            if (value == null) {
                value = new byte[0];
            }
        }
        return value;
    }

    @Override
    public void close() {
        i = -1;
    }
}
