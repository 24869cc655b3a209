package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.SegmentCounters;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.memstore.spi.SkipListIterator;
import io.bellows.engine.internal.iter.Slice;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The mutable segment: a concurrent skiplist of cells (HBase's CellSet over ConcurrentSkipListMap).
 * Lock-free for readers and writers; iterators are weakly consistent, which is safe because a reader
 * only ever looks at sequences that were published after their cells were inserted. With an MSLAB the
 * cells' bytes are copied into its chunks. The active segment of the compacting policies, and NONE's
 * without an MSLAB; NONE's with one is an {@link InlineSkipListSegment}.
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
    private final SegmentCounters counters = new SegmentCounters();

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
    public void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq,
            int kind) {
        Cell c = mslab == null ? Cell.copyOf(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, seq, kind)
                : mslab.copy(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, seq, kind);
        cells.add(c);
        counters.add(seq, c.dataSize(), kind == InternalKeys.KIND_DELETE);
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        Cell probe = Cell.reusableProbe(key, seq);
        Cell c;
        try {
            c = cells.ceiling(probe);
        } finally {
            Cell.clearProbe(probe);
        }
        if (c == null || !c.keyEquals(key)) {
            return false;
        }
        // The value stays where the cell holds it (its own array or an MSLAB chunk) until the reader,
        // still inside its view, copies it out once.
        out.set(c.sequence, c.kind, c.valueBuf, c.valueOff, c.valueLen);
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
        return counters.dataSize();
    }

    @Override
    public long heapSize() {
        long n = counters.entries();
        int perCell = SKIPLIST_ENTRY_OVERHEAD + Cell.OBJECT_SIZE + (mslab == null ? Cell.ARRAYS_OVERHEAD : 0);
        return counters.dataSize() + n * perCell;
    }

    @Override
    public long entries() {
        return counters.entries();
    }

    @Override
    public long deletions() {
        return counters.deletions();
    }

    @Override
    public long minSequence() {
        return counters.minSequence();
    }

    @Override
    public long maxSequence() {
        return counters.maxSequence();
    }

    @Override
    public String kind() {
        return "skiplist";
    }

    @Override
    public List<SegmentMemory> memory() {
        return memory;
    }

    /** Iterator over a navigable set of on-heap cells. */
    static final class CellSetIterator extends SkipListIterator<Cell> {
        CellSetIterator(NavigableSet<Cell> set) {
            super(set);
        }

        @Override
        protected Cell probe(byte[] key, long sequence) {
            return Cell.probe(key, sequence);
        }

        @Override
        protected byte[] keyOf(Cell c) {
            return c.key();
        }

        @Override
        protected byte[] valueOf(Cell c) {
            return c.value();
        }

        @Override
        protected void keyView(Cell c, Slice view) {
            c.keyView(view);
        }

        @Override
        protected void valueView(Cell c, Slice view) {
            c.valueView(view);
        }

        @Override
        protected long sequenceOf(Cell c) {
            return c.sequence;
        }

        @Override
        protected int kindOf(Cell c) {
            return c.kind;
        }
    }
}
