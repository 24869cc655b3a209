package io.bellows.engine.memstore;

import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.Lookup;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mutable segment: a concurrent skiplist of cells (HBase's CellSet over ConcurrentSkipListMap).
 * Lock-free for readers and writers; iterators are weakly consistent, which is safe because a reader
 * only ever looks at sequences that were published after their cells were inserted. With an MSLAB the
 * cells' bytes are copied into its chunks.
 */
final class SkipListSegment implements MutableSegment, CellSource {
    /**
     * Heap of one ConcurrentSkipListMap entry as HBase's ClassSize computes it: a node (header, key,
     * value and next references: 24 B) plus one index node per two entries on average (24 B / 2),
     * aligned: 40 B with compressed oops.
     */
    static final int SKIPLIST_ENTRY_OVERHEAD = 40;

    private final ConcurrentSkipListSet<Cell> cells = new ConcurrentSkipListSet<>(Cell.ORDER);
    private final Mslab mslab;
    private final List<SegmentMemory> memory;
    private final LongAdder dataSize = new LongAdder();
    private final LongAdder entries = new LongAdder();
    private final LongAccumulator minSeq = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final AtomicLong maxSeq = new AtomicLong();

    /** A segment whose cells keep their own arrays. */
    SkipListSegment() {
        this(null);
    }

    /** A segment copying cells into {@code mslab} (null: cells keep their own arrays). */
    SkipListSegment(Mslab mslab) {
        this.mslab = mslab;
        this.memory = mslab == null ? List.of() : List.of(mslab);
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) {
        Cell c = mslab == null ? Cell.of(key, seq, kind, value) : mslab.copy(key, seq, kind, value);
        cells.add(c);
        dataSize.add(c.dataSize());
        entries.increment();
        minSeq.accumulate(seq);
        maxSeq.accumulateAndGet(seq, Math::max);
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        Cell c = cells.ceiling(Cell.probe(key, seq));
        if (c == null || !c.keyEquals(key)) {
            return false;
        }
        out.set(c.sequence, c.kind, c.value());
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new CellSetIterator(cells);
    }

    @Override
    public Iterator<Cell> cells() {
        return cells.iterator();
    }

    @Override
    public long dataSize() {
        return dataSize.sum();
    }

    @Override
    public long heapSize() {
        long n = entries.sum();
        int perCell = SKIPLIST_ENTRY_OVERHEAD + Cell.OBJECT_SIZE + (mslab == null ? Cell.ARRAYS_OVERHEAD : 0);
        return dataSize.sum() + n * perCell;
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

    @Override
    public String kind() {
        return "skiplist";
    }

    @Override
    public List<SegmentMemory> memory() {
        return memory;
    }

    /** Iterator over a navigable set of cells; re-seeks by taking a tail view. */
    static final class CellSetIterator implements InternalIterator {
        private final NavigableSet<Cell> set;
        private Iterator<Cell> it;
        private Cell current;
        private byte[] key;
        private byte[] value;
        private boolean valueRead;

        CellSetIterator(NavigableSet<Cell> set) {
            this.set = set;
        }

        @Override
        public boolean isValid() {
            return current != null;
        }

        @Override
        public void seekToFirst() {
            it = set.iterator();
            advance();
        }

        @Override
        public void seek(byte[] userKey, long sequence) {
            it = set.tailSet(Cell.probe(userKey, sequence), true).iterator();
            advance();
        }

        @Override
        public void next() {
            advance();
        }

        private void advance() {
            current = it.hasNext() ? it.next() : null;
            key = current == null ? null : current.key();
            value = null;
            valueRead = false;
        }

        @Override
        public byte[] key() {
            return key;
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
            if (!valueRead) {
                value = current.value();
                valueRead = true;
            }
            return value;
        }

        @Override
        public void close() {
            current = null;
        }
    }
}
