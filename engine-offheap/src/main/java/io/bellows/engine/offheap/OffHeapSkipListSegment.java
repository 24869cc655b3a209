package io.bellows.engine.offheap;

import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.InternalKeys;
import io.bellows.engine.key.Lookup;
import io.bellows.engine.memstore.MutableSegment;
import io.bellows.engine.memstore.SegmentMemory;
import io.netty.buffer.ByteBuf;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

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
    private final LongAdder dataSize = new LongAdder();
    private final LongAdder entries = new LongAdder();
    private final LongAccumulator minSeq = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final AtomicLong maxSeq = new AtomicLong();

    OffHeapSkipListSegment(OffHeapMslab mslab) {
        this.mslab = mslab;
        this.memory = List.of(mslab);
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) {
        byte[] v = kind == InternalKeys.KIND_PUT ? value : null;
        ByteBuf b = mslab.append(key, v);
        cells.add(new OffHeapCell(b, mslab.lastChunkNo, mslab.lastOffset, key.length, seq, kind));
        dataSize.add(key.length + (v == null ? 0 : v.length));
        entries.increment();
        minSeq.accumulate(seq);
        maxSeq.accumulateAndGet(seq, Math::max);
    }

    /** The cells in internal-key order; the segment must no longer be written. */
    Iterator<OffHeapCell> cells() {
        return cells.iterator();
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        OffHeapCell c = cells.ceiling(OffHeapCell.probe(key, seq));
        if (c == null || !c.keyEquals(key)) {
            return false;
        }
        out.set(c.sequence, c.kind, c.value(c.kind == InternalKeys.KIND_PUT));
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new CellIterator(cells);
    }

    @Override
    public long dataSize() {
        return dataSize.sum();
    }

    /** Only the skiplist and the cell objects: the bytes are off-heap. */
    @Override
    public long heapSize() {
        return entries.sum() * (SKIPLIST_ENTRY_OVERHEAD + OffHeapCell.OBJECT_SIZE);
    }

    @Override
    public long offHeapSize() {
        return dataSize.sum() + entries.sum() * OffHeapMslab.HEADER;
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

    /** Iterator over the skiplist; re-seeks by taking a tail view. */
    private static final class CellIterator implements InternalIterator {
        private final NavigableSet<OffHeapCell> set;
        private Iterator<OffHeapCell> it;
        private OffHeapCell current;
        private byte[] key;
        private byte[] value;
        private boolean valueRead;

        CellIterator(NavigableSet<OffHeapCell> set) {
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
            it = set.tailSet(OffHeapCell.probe(userKey, sequence), true).iterator();
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
                value = current.value(current.kind == InternalKeys.KIND_PUT);
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
