package io.bellows.engine.memstore;

import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.InternalKeys;
import io.bellows.engine.key.Lookup;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mutable segment: a concurrent skiplist of cells (HBase's CellSet over ConcurrentSkipListMap).
 * Lock-free for readers and writers; iterators are weakly consistent, which is safe because a reader
 * only ever looks at sequences that were published after their cells were inserted.
 */
final class SkipListSegment implements Segment {
    /**
     * Heap of one ConcurrentSkipListMap entry as HBase's ClassSize computes it: a node (header, key,
     * value and next references: 24 B) plus one index node per two entries on average (24 B / 2),
     * aligned: 40 B with compressed oops.
     */
    static final int SKIPLIST_ENTRY_OVERHEAD = 40;

    private final ConcurrentSkipListMap<Cell, Cell> cells = new ConcurrentSkipListMap<>(Cell.ORDER);
    private final LongAdder dataSize = new LongAdder();
    private final LongAdder entries = new LongAdder();
    private final LongAccumulator minSeq = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final AtomicLong maxSeq = new AtomicLong();

    void add(byte[] key, long seq, int kind, byte[] value) {
        Cell c = new Cell(key, seq, kind, value);
        cells.put(c, c);
        dataSize.add(c.dataSize());
        entries.increment();
        minSeq.accumulate(seq);
        maxSeq.accumulateAndGet(seq, Math::max);
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        Cell c = cells.ceilingKey(new Cell(key, seq, InternalKeys.KIND_PUT, null));
        if (c == null || !Arrays.equals(c.key, key)) {
            return false;
        }
        out.set(c.sequence, c.kind, c.value);
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new CellMapIterator(cells);
    }

    @Override
    public long dataSize() {
        return dataSize.sum();
    }

    @Override
    public long heapSize() {
        long n = entries.sum();
        return dataSize.sum() + n * (SKIPLIST_ENTRY_OVERHEAD + Cell.CELL_OVERHEAD);
    }

    @Override
    public long entries() {
        return entries.sum();
    }

    @Override
    public long minSequence() {
        return minSeq.get();
    }

    @Override
    public long maxSequence() {
        return maxSeq.get();
    }

    /** Iterator over a navigable map of cells; re-seeks by taking a tail view. */
    static final class CellMapIterator implements InternalIterator {
        private final NavigableMap<Cell, Cell> map;
        private Iterator<Cell> it;
        private Cell current;

        CellMapIterator(NavigableMap<Cell, Cell> map) {
            this.map = map;
        }

        @Override
        public boolean isValid() {
            return current != null;
        }

        @Override
        public void seekToFirst() {
            it = map.keySet().iterator();
            advance();
        }

        @Override
        public void seek(byte[] userKey, long sequence) {
            it = map.tailMap(new Cell(userKey, sequence, InternalKeys.KIND_PUT, null), true).keySet().iterator();
            advance();
        }

        @Override
        public void next() {
            advance();
        }

        private void advance() {
            current = it.hasNext() ? it.next() : null;
        }

        @Override
        public byte[] key() {
            return current.key;
        }

        @Override
        public long sequence() {
            return current.sequence;
        }

        @Override
        public int kind() {
            return current.kind;
        }

        @Override
        public byte[] value() {
            return current.value;
        }

        @Override
        public void close() {
            current = null;
        }
    }
}
