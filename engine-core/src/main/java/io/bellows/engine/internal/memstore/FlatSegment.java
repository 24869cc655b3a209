package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.IndexedIterator;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.iter.Slice;
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
    /** Heap of one index entry: a compressed reference, and the key's hash and prefix a merge uses (CellRun). */
    static final int INDEX_ENTRY = 4 + 8 + 8;
    /**
     * Bits per key of the segment's Bloom filter (1% false positives). A get probes every flat segment
     * of the pipeline, newest first, and most gets of a large store find their key in none of them: the
     * filter answers those with one hash per get and a few bit tests per segment, where a binary search
     * took about 17 comparisons, each two cache misses (the cell, then its key bytes).
     */
    static final int FILTER_BITS_PER_KEY = 10;
    /** Array header and the segment object. */
    private static final int FIXED_OVERHEAD = 16 + 64;

    private final Cell[] cells;
    private final CellRun run;
    private final BloomFilter filter;
    private final List<SegmentMemory> memory;

    /**
     * @param cells in internal-key order, no two equal
     * @param memory the memories every cell lives in (the flattened or merged segments', or the
     *     compaction's own)
     */
    FlatSegment(Cell[] cells, List<SegmentMemory> memory) {
        this(CellRun.of(cells), memory);
    }

    /** Over a run whose figures are already known (a merge's). */
    FlatSegment(CellRun run, List<SegmentMemory> memory) {
        this.cells = run.cells;
        this.run = run;
        byte[] bits = BloomFilter.build(run.hashes, run.hashes.length, FILTER_BITS_PER_KEY);
        this.filter = BloomFilter.decode(bits, 0, bits.length);
        this.memory = memory;
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

    /** The cells and their figures; the array must not be changed. */
    CellRun run() {
        return run;
    }

    @Override
    public long uniqueKeys() {
        return run.uniqueKeys;
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        return get(key, BloomFilter.hash(key), seq, out);
    }

    /** As {@link #get(byte[], long, Lookup)}, with the key's {@link BloomFilter#hash} computed once per lookup. */
    boolean get(byte[] key, long keyHash, long seq, Lookup out) {
        if (!filter.mayContainHash(keyHash)) {
            return false;
        }
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
        return run.dataSize;
    }

    @Override
    public long heapSize() {
        return FIXED_OVERHEAD + run.cellHeap + filter.encodedLength();
    }

    @Override
    public long entries() {
        return cells.length;
    }

    @Override
    public long deletions() {
        return run.tombstones;
    }

    @Override
    public long minSequence() {
        return run.minSequence;
    }

    @Override
    public long maxSequence() {
        return run.maxSequence;
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
        protected void keyView(int i, Slice view) {
            cells[i].keyView(view);
        }

        @Override
        protected void valueView(int i, Slice view) {
            cells[i].valueView(view);
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
