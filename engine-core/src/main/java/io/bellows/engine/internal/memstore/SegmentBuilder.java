package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Builds flat segments: by flattening one segment, merging several (both over the same cells), or
 * compacting several (survivors relocated into fresh memory).
 */
final class SegmentBuilder {
    private SegmentBuilder() {}

    static FlatSegment flatten(Segment s) {
        return new FlatSegment(toArray(cellsOf(s), s.entries()), s.memory());
    }

    /** One flat index over all cells of {@code segments}; no cell is copied or dropped. */
    static FlatSegment merge(List<Segment> segments) {
        List<SegmentMemory> memory = new ArrayList<>();
        for (Segment s : segments) {
            memory.addAll(s.memory());
        }
        return new FlatSegment(mergedRun(segments), List.copyOf(memory));
    }

    /**
     * Merges {@code segments}, keeping the versions {@code retention} keeps, and copies the survivors
     * into {@code out} (null: they keep their own arrays).
     */
    static Compacted compact(List<Segment> segments, Retention retention, Mslab out) {
        CellRun all = mergedRun(segments);
        Cell[] kept = new Cell[all.length()];
        long[] keptHashes = new long[all.length()];
        int k = 0;
        long droppedCells = 0;
        long droppedBytes = 0;
        Cell prev = null;
        for (int i = 0; i < all.length(); i++) {
            Cell c = all.cells[i];
            boolean keep = retention.keep(prev != null && prev.sameKey(c), c.sequence);
            prev = c;
            if (keep) {
                keptHashes[k] = all.hashes[i];
                kept[k++] = out == null ? c : out.copyOf(c);
            } else {
                droppedCells++;
                droppedBytes += c.dataSize();
            }
        }
        CellRun survivors = CellRun.of(Arrays.copyOf(kept, k), Arrays.copyOf(keptHashes, k));
        FlatSegment seg = new FlatSegment(survivors, out == null ? List.of() : List.of(out));
        return new Compacted(seg, droppedCells, droppedBytes);
    }

    private static Cell[] toArray(Iterator<Cell> it, long sizeHint) {
        List<Cell> out = new ArrayList<>((int) Math.min(sizeHint, Integer.MAX_VALUE - 8));
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out.toArray(new Cell[0]);
    }

    /** The cells of {@code s}; a segment that is no cell source is read through its iterator. */
    static Iterator<Cell> cellsOf(Segment s) {
        if (s instanceof CellSource) {
            return ((CellSource) s).cells();
        }
        InternalIterator it = s.iterator();
        it.seekToFirst();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.isValid();
            }

            @Override
            public Cell next() {
                if (!it.isValid()) {
                    throw new NoSuchElementException();
                }
                Cell c = Cell.of(it.key(), it.sequence(), it.kind(), it.value());
                it.next();
                return c;
            }
        };
    }

    /**
     * All cells of {@code segments} in internal-key order (sequences are unique across segments), with
     * their figures. The two shortest runs are merged first, as in a Huffman tree, so each cell is moved
     * about log(segments) times at most and the large segment only once.
     */
    static CellRun mergedRun(List<Segment> segments) {
        PriorityQueue<CellRun> runs = new PriorityQueue<>(Math.max(1, segments.size()),
                (a, b) -> Integer.compare(a.length(), b.length()));
        for (Segment s : segments) {
            runs.add(s instanceof FlatSegment ? ((FlatSegment) s).run() : CellRun.of(toArray(cellsOf(s), s.entries())));
        }
        if (runs.isEmpty()) {
            return CellRun.of(new Cell[0]);
        }
        while (runs.size() > 1) {
            runs.add(CellRun.merge(runs.poll(), runs.poll()));
        }
        return runs.poll();
    }
}
