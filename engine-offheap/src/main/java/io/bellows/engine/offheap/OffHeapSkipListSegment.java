package io.bellows.engine.offheap;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.SegmentCounters;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.memstore.spi.SkipListIterator;
import io.bellows.engine.internal.iter.Slice;
import io.netty.buffer.ByteBuf;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The OFF_HEAP active segment: a concurrent skiplist of {@link OffHeapCell}s whose bytes live in an
 * off-heap MSLAB. Lock-free for readers and the writer; iterators are weakly consistent, which is safe
 * because a reader only looks at sequences published after their cells were inserted.
 */
final class OffHeapSkipListSegment implements MutableSegment {
    /** Heap of one ConcurrentSkipListSet entry (node plus an index node per two entries), as on-heap. */
    static final int SKIPLIST_ENTRY_OVERHEAD = 40;

    private final ConcurrentSkipListSet<OffHeapCell> cells = new ConcurrentSkipListSet<>(OffHeapCell.ORDER);
    final OffHeapMslab mslab;
    private final List<SegmentMemory> memory;
    private final SegmentCounters counters = new SegmentCounters();

    OffHeapSkipListSegment(OffHeapMslab mslab) {
        this.mslab = mslab;
        this.memory = List.of(mslab);
    }

    @Override
    public void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq,
            int kind) {
        int vlen = kind == InternalKeys.KIND_PUT ? valueLen : 0;
        ByteBuf b = mslab.append(keyBuf, keyOff, keyLen, valueBuf, valueOff, vlen);
        cells.add(new OffHeapCell(b, mslab.lastChunkNo, mslab.lastOffset, keyLen, seq, kind));
        counters.add(seq, keyLen + vlen, kind == InternalKeys.KIND_DELETE);
    }

    /** The cells in internal-key order; the segment must no longer be written. */
    Iterator<OffHeapCell> cells() {
        return cells.iterator();
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        OffHeapCell probe = OffHeapCell.reusableProbe(key, seq);
        OffHeapCell c;
        try {
            c = cells.ceiling(probe);
        } finally {
            OffHeapCell.clearProbe(probe);
        }
        if (c == null || !c.keyEquals(key)) {
            return false;
        }
        c.lookup(out);
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new CellIterator(cells);
    }

    @Override
    public long dataSize() {
        return counters.dataSize();
    }

    /** Only the skiplist and the cell objects: the bytes are off-heap. */
    @Override
    public long heapSize() {
        return counters.entries() * (SKIPLIST_ENTRY_OVERHEAD + OffHeapCell.OBJECT_SIZE);
    }

    @Override
    public long offHeapSize() {
        return counters.dataSize() + counters.entries() * OffHeapMslab.HEADER;
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

    private static final class CellIterator extends SkipListIterator<OffHeapCell> {
        private final ScratchView keyScratch = new ScratchView(32);
        private final ScratchView valueScratch = new ScratchView(128);

        CellIterator(NavigableSet<OffHeapCell> set) {
            super(set);
        }

        @Override
        protected OffHeapCell probe(byte[] key, long sequence) {
            return OffHeapCell.probe(key, sequence);
        }

        @Override
        protected byte[] keyOf(OffHeapCell c) {
            return c.key();
        }

        @Override
        protected byte[] valueOf(OffHeapCell c) {
            return c.value(c.kind == InternalKeys.KIND_PUT);
        }

        @Override
        protected void keyView(OffHeapCell c, Slice view) {
            c.keyView(keyScratch, view);
        }

        @Override
        protected void valueView(OffHeapCell c, Slice view) {
            c.valueView(valueScratch, view);
        }

        @Override
        protected long sequenceOf(OffHeapCell c) {
            return c.sequence;
        }

        @Override
        protected int kindOf(OffHeapCell c) {
            return c.kind;
        }
    }
}
