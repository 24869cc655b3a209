package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.Gallop;
import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.util.Bytes;
import java.util.Arrays;

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
 *
 * <p>Why the prefixes: each comparison of a search into the large run otherwise reads a cell object
 * and then its key bytes, two cache misses at random places of the heap, and the merge is bound by
 * them. Every key of a run shares the run's first {@link #prefixOffset} bytes (the common prefix of
 * its first and last key), so the next eight bytes, kept in a {@code long[]} beside the cells, order
 * two keys of the run whenever they differ there; only ties read the keys.
 */
final class CellRun {
    private static final CellRun EMPTY = new CellRun(new Cell[0], new long[0], new long[0], 0, 0, 0, 0,
            Long.MAX_VALUE, 0, 0);

    final Cell[] cells;
    /**
     * {@link BloomFilter#hash} of each cell's key, kept beside the cells so that the filter of a merged
     * segment is built from a sequential array instead of from every key's bytes again.
     */
    final long[] hashes;
    /** Bytes [prefixOffset, prefixOffset + 8) of each key, big-endian, zero-padded: unsigned order is key order. */
    final long[] prefixes;
    final int prefixOffset;
    /** Key and value bytes. */
    final long dataSize;
    /** Heap of the cells and their index entries, without the segment's fixed overhead. */
    final long cellHeap;
    final long tombstones;
    final long minSequence;
    final long maxSequence;
    final int uniqueKeys;

    private CellRun(Cell[] cells, long[] hashes, long[] prefixes, int prefixOffset, long dataSize, long cellHeap,
            long tombstones, long minSequence, long maxSequence, int uniqueKeys) {
        this.cells = cells;
        this.hashes = hashes;
        this.prefixes = prefixes;
        this.prefixOffset = prefixOffset;
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
        if (cells.length == 0) {
            return EMPTY;
        }
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
        int offset = commonPrefix(cells[0], cells[cells.length - 1]);
        return new CellRun(cells, hashes, prefixes(cells, offset), offset, data, heap, tombstones, min, max, unique);
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
        if (x.length() == 0 || y.length() == 0) {
            return x.length() == 0 ? y : x;
        }
        Cell first = Cell.compare(x.cells[0], y.cells[0]) < 0 ? x.cells[0] : y.cells[0];
        Cell last = Cell.compare(x.cells[x.length() - 1], y.cells[y.length() - 1]) > 0 ? x.cells[x.length() - 1]
                : y.cells[y.length() - 1];
        int offset = commonPrefix(first, last);
        CellRun bigRun = (x.length() >= y.length() ? x : y).withPrefixOffset(offset);
        CellRun smallRun = (x.length() >= y.length() ? y : x).withPrefixOffset(offset);
        Cell[] big = bigRun.cells;
        long[] bigHashes = bigRun.hashes;
        long[] bigPrefixes = bigRun.prefixes;
        Cell[] small = smallRun.cells;
        Cell[] out = new Cell[big.length + small.length];
        long[] outHashes = new long[out.length];
        long[] outPrefixes = new long[out.length];
        CellGallop search = new CellGallop(big, bigPrefixes);
        int shared = 0;
        int b = 0;
        int o = 0;
        Cell prev = null;
        for (int i = 0; i < small.length; i++) {
            Cell s = small[i];
            long p = smallRun.prefixes[i];
            int j = search.target(s, p).firstAfter(b, big.length);
            System.arraycopy(big, b, out, o, j - b);
            System.arraycopy(bigHashes, b, outHashes, o, j - b);
            System.arraycopy(bigPrefixes, b, outPrefixes, o, j - b);
            o += j - b;
            b = j;
            outHashes[o] = smallRun.hashes[i];
            outPrefixes[o] = p;
            out[o++] = s;
            // The first version of each key of the small run looks for that key among its big neighbours:
            // versions of one key are adjacent in the merged order, so if big holds the key, one of them is.
            if (prev == null || !prev.sameKey(s)) {
                if ((j > 0 && bigPrefixes[j - 1] == p && big[j - 1].sameKey(s))
                        || (j < big.length && bigPrefixes[j] == p && big[j].sameKey(s))) {
                    shared++;
                }
            }
            prev = s;
        }
        System.arraycopy(big, b, out, o, big.length - b);
        System.arraycopy(bigHashes, b, outHashes, o, big.length - b);
        System.arraycopy(bigPrefixes, b, outPrefixes, o, big.length - b);
        return new CellRun(out, outHashes, outPrefixes, offset, x.dataSize + y.dataSize, x.cellHeap + y.cellHeap,
                x.tombstones + y.tombstones, Math.min(x.minSequence, y.minSequence),
                Math.max(x.maxSequence, y.maxSequence), x.uniqueKeys + y.uniqueKeys - shared);
    }

    /**
     * This run with its prefixes taken at {@code offset}, which is at most its own (a merge's range is
     * at least as wide as each input's); a fresh pass over the keys only when it is smaller.
     */
    private CellRun withPrefixOffset(int offset) {
        if (offset == prefixOffset) {
            return this;
        }
        return new CellRun(cells, hashes, prefixes(cells, offset), offset, dataSize, cellHeap, tombstones, minSequence,
                maxSequence, uniqueKeys);
    }

    /**
     * The first index at or after {@code from} whose cell orders after {@code c} (whose prefix in this
     * run is {@code p}): one search, where a merge reuses one {@link CellGallop} for all of its cells.
     */
    static int gallop(Cell[] a, long[] prefixes, int from, Cell c, long p) {
        return new CellGallop(a, prefixes).target(c, p).firstAfter(from, a.length);
    }

    /** A galloping search over one run's cells, reused for every cell placed in it. */
    private static final class CellGallop extends Gallop {
        private final Cell[] cells;
        private final long[] prefixes;
        private Cell target;
        private long targetPrefix;

        CellGallop(Cell[] cells, long[] prefixes) {
            this.cells = cells;
            this.prefixes = prefixes;
        }

        CellGallop target(Cell c, long p) {
            target = c;
            targetPrefix = p;
            return this;
        }

        @Override
        protected int compareAt(int i) {
            return compare(cells, prefixes, i, target, targetPrefix);
        }
    }

    private static int compare(Cell[] a, long[] prefixes, int i, Cell c, long p) {
        int byPrefix = Long.compareUnsigned(prefixes[i], p);
        return byPrefix != 0 ? byPrefix : Cell.compare(a[i], c);
    }

    private static long[] prefixes(Cell[] cells, int offset) {
        long[] out = new long[cells.length];
        for (int i = 0; i < cells.length; i++) {
            out[i] = prefixAt(cells[i], offset);
        }
        return out;
    }

    /** Key bytes [offset, offset + 8) as a big-endian long, zero-padded past the key's end. */
    static long prefixAt(Cell c, int offset) {
        return Bytes.prefixAt(c.keyBuf, c.keyOff, c.keyLen, offset);
    }

    /** Length of the common prefix of two cells' keys. */
    private static int commonPrefix(Cell a, Cell b) {
        int m = Arrays.mismatch(a.keyBuf, a.keyOff, a.keyOff + a.keyLen, b.keyBuf, b.keyOff, b.keyOff + b.keyLen);
        return m < 0 ? a.keyLen : m;
    }
}
