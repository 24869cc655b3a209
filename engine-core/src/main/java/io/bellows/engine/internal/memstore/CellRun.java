package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.BloomFilter;

/**
 * A sorted array of cells with the figures a flat segment reports about them, and the merge of two such
 * runs. A merge moves references only and derives the figures from its inputs', so merging a small
 * segment into a large one costs in proportion to the small one: the large one's cells are neither
 * compared one by one nor visited again to count them.
 *
 * <p>Why not a heap over iterators: an in-memory merge of ADAPTIVE or BASIC joins one large segment
 * with a few active-sized ones, again and again as the MemStore fills. Through a {@code PriorityQueue}
 * every cell of the large segment was compared a few times and then rescanned for the figures; a
 * profile of a Kafka Streams aggregation had the in-memory thread as busy as the stream thread itself
 * (docs/benchmarks.md, "Kafka Streams"). Galloping (TimSort's) finds where each cell of the small run
 * goes in a few comparisons and copies the large run's cells between them with {@code arraycopy}.
 */
final class CellRun {
    final Cell[] cells;
    /**
     * {@link BloomFilter#hash} of each cell's key, kept beside the cells so that the filter of a merged
     * segment is built from a sequential array instead of from every key's bytes again.
     */
    final long[] hashes;
    /** Key and value bytes. */
    final long dataSize;
    /** Heap of the cells and their index entries, without the segment's fixed overhead. */
    final long cellHeap;
    final long tombstones;
    final long minSequence;
    final long maxSequence;
    final int uniqueKeys;

    private CellRun(Cell[] cells, long[] hashes, long dataSize, long cellHeap, long tombstones, long minSequence, long maxSequence,
            int uniqueKeys) {
        this.cells = cells;
        this.hashes = hashes;
        this.dataSize = dataSize;
        this.cellHeap = cellHeap;
        this.tombstones = tombstones;
        this.minSequence = minSequence;
        this.maxSequence = maxSequence;
        this.uniqueKeys = uniqueKeys;
    }

    /** Counts the figures of {@code cells}, which are in internal-key order with no two equal. */
    static CellRun of(Cell[] cells) {
        long[] hashes = new long[cells.length];
        for (int i = 0; i < cells.length; i++) {
            Cell c = cells[i];
            hashes[i] = BloomFilter.hash(c.keyBuf, c.keyOff, c.keyLen);
        }
        return of(cells, hashes);
    }

    /** As {@link #of(Cell[])}, with the cells' key hashes already known. */
    static CellRun of(Cell[] cells, long[] hashes) {
        long data = 0;
        long heap = 0;
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
            heap += heapOf(c);
            min = Math.min(min, c.sequence);
            max = Math.max(max, c.sequence);
            if (prev == null || !prev.sameKey(c)) {
                unique++;
            }
            prev = c;
        }
        return new CellRun(cells, hashes, data, heap, tombstones, min, max, unique);
    }

    /** Heap of one cell in a flat segment: its bytes, object and index entry, and its arrays' headers if it owns them. */
    static long heapOf(Cell c) {
        return c.dataSize() + FlatSegment.INDEX_ENTRY + Cell.OBJECT_SIZE + (c.inChunk() ? 0 : Cell.ARRAYS_OVERHEAD);
    }

    int length() {
        return cells.length;
    }

    /**
     * The merge of two runs whose cells are all distinct (sequences are unique across a MemStore's
     * segments). Unique keys are those of both less the keys found in both.
     */
    static CellRun merge(CellRun x, CellRun y) {
        CellRun bigRun = x.length() >= y.length() ? x : y;
        CellRun smallRun = bigRun == x ? y : x;
        Cell[] big = bigRun.cells;
        long[] bigHashes = bigRun.hashes;
        Cell[] small = smallRun.cells;
        Cell[] out = new Cell[big.length + small.length];
        long[] outHashes = new long[out.length];
        int shared = 0;
        int b = 0;
        int o = 0;
        Cell prev = null;
        for (int i = 0; i < small.length; i++) {
            Cell s = small[i];
            int j = gallop(big, b, s);
            System.arraycopy(big, b, out, o, j - b);
            System.arraycopy(bigHashes, b, outHashes, o, j - b);
            o += j - b;
            b = j;
            outHashes[o] = smallRun.hashes[i];
            out[o++] = s;
            // The first version of each key of the small run looks for that key among its big neighbours:
            // versions of one key are adjacent in the merged order, so if big holds the key, one of them is.
            if (prev == null || !prev.sameKey(s)) {
                if ((j > 0 && big[j - 1].sameKey(s)) || (j < big.length && big[j].sameKey(s))) {
                    shared++;
                }
            }
            prev = s;
        }
        System.arraycopy(big, b, out, o, big.length - b);
        System.arraycopy(bigHashes, b, outHashes, o, big.length - b);
        return new CellRun(out, outHashes, x.dataSize + y.dataSize, x.cellHeap + y.cellHeap, x.tombstones + y.tombstones,
                Math.min(x.minSequence, y.minSequence), Math.max(x.maxSequence, y.maxSequence),
                x.uniqueKeys + y.uniqueKeys - shared);
    }

    /** The first index at or after {@code from} whose cell orders after {@code c}: exponential, then binary search. */
    static int gallop(Cell[] a, int from, Cell c) {
        int n = a.length;
        if (from >= n || Cell.compare(a[from], c) > 0) {
            return from;
        }
        int lo = from;
        int step = 1;
        int hi;
        while (true) {
            hi = lo + step;
            if (hi >= n) {
                hi = n;
                break;
            }
            if (Cell.compare(a[hi], c) > 0) {
                break;
            }
            lo = hi;
            step <<= 1;
        }
        // a[lo] orders before c; a[hi] after it, or hi == n.
        lo++;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Cell.compare(a[mid], c) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
