package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.IndexedIterator;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * An immutable segment whose index is a sorted array of cells (Accordion's flat segment, HBase's
 * CellArrayMap): 4 bytes of index per entry instead of a skiplist node, binary search for lookups, and
 * one array for the collector to trace. Flattening and merging build it over the same cells, so the
 * cell data is not touched; compaction builds it over relocated survivors.
 *
 * <p>Thread safety: immutable after construction; safely published through the MemStore state.
 */
final class FlatSegment implements ImmutableSegment, CellSource {
    /** Heap of one index entry: a compressed reference. */
    static final int INDEX_ENTRY = 4;
    /** Array header and the segment object. */
    private static final int FIXED_OVERHEAD = 16 + 64;

    private final Cell[] cells;
    private final List<SegmentMemory> memory;
    private final long dataSize;
    private final long heapSize;
    private final long minSeq;
    private final long maxSeq;
    private final int uniqueKeys;
    private final long deletions;

    /**
     * @param cells in internal-key order, no two equal
     * @param memory the memories every cell lives in (the flattened or merged segments', or the
     *     compaction's own)
     */
    FlatSegment(Cell[] cells, List<SegmentMemory> memory) {
        this.cells = cells;
        this.memory = memory;
        long data = 0;
        long heap = FIXED_OVERHEAD;
        long min = Long.MAX_VALUE;
        long max = 0;
        int unique = 0;
        long tombstones = 0;
        Cell prev = null;
        for (Cell c : cells) {
            if (c.kind == InternalKeys.KIND_DELETE) {
                tombstones++;
            }
            data += c.dataSize();
            heap += c.dataSize() + INDEX_ENTRY + Cell.OBJECT_SIZE + (c.inChunk() ? 0 : Cell.ARRAYS_OVERHEAD);
            min = Math.min(min, c.sequence);
            max = Math.max(max, c.sequence);
            if (prev == null || !prev.sameKey(c)) {
                unique++;
            }
            prev = c;
        }
        this.dataSize = data;
        this.deletions = tombstones;
        this.heapSize = heap;
        this.minSeq = min;
        this.maxSeq = max;
        this.uniqueKeys = unique;
    }

    /**
     * Index of the first cell at or after (key, seq) in internal order (the ceiling), or
     * {@code cells.length} if none; the cell before it, if any, is the floor of the entries strictly
     * before. Compares in place: a probe allocates nothing.
     */
    int ceiling(byte[] key, long seq) {
        int lo = 0;
        int hi = cells.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cells[mid].compareTo(key, seq) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    Cell cell(int i) {
        return cells[i];
    }

    int size() {
        return cells.length;
    }

    @Override
    public long uniqueKeys() {
        return uniqueKeys;
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        int i = ceiling(key, seq);
        if (i == cells.length || !cells[i].keyEquals(key)) {
            return false;
        }
        Cell c = cells[i];
        out.set(c.sequence, c.kind, c.valueBuf, c.valueOff, c.valueLen);
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new ArrayIterator();
    }

    @Override
    public Iterator<Cell> cells() {
        return Arrays.asList(cells).iterator();
    }

    @Override
    public long dataSize() {
        return dataSize;
    }

    @Override
    public long heapSize() {
        return heapSize;
    }

    @Override
    public long entries() {
        return cells.length;
    }

    @Override
    public long deletions() {
        return deletions;
    }

    @Override
    public long minSequence() {
        return minSeq;
    }

    @Override
    public long maxSequence() {
        return maxSeq;
    }

    @Override
    public String kind() {
        return "flat";
    }

    @Override
    public List<SegmentMemory> memory() {
        return memory;
    }

    private final class ArrayIterator extends IndexedIterator {
        ArrayIterator() {
            super(cells.length);
        }

        @Override
        protected int ceiling(byte[] key, long sequence) {
            return FlatSegment.this.ceiling(key, sequence);
        }

        @Override
        protected byte[] keyAt(int i) {
            return cells[i].key();
        }

        @Override
        protected byte[] valueAt(int i) {
            return cells[i].value();
        }

        @Override
        protected long sequenceAt(int i) {
            return cells[i].sequence;
        }

        @Override
        protected int kindAt(int i) {
            return cells[i].kind;
        }
    }
}
