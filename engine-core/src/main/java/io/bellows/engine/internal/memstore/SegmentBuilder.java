package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.ArrayList;
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
        long n = 0;
        for (Segment s : segments) {
            memory.addAll(s.memory());
            n += s.entries();
        }
        return new FlatSegment(toArray(merged(segments), n), List.copyOf(memory));
    }

    /**
     * Merges {@code segments}, keeping the versions {@code retention} keeps, and copies the survivors
     * into {@code out} (null: they keep their own arrays).
     */
    static Compacted compact(List<Segment> segments, Retention retention, Mslab out) {
        long n = 0;
        for (Segment s : segments) {
            n += s.entries();
        }
        List<Cell> kept = new ArrayList<>((int) Math.min(n, Integer.MAX_VALUE - 8));
        long droppedCells = 0;
        long droppedBytes = 0;
        Cell prev = null;
        for (Iterator<Cell> it = merged(segments); it.hasNext(); ) {
            Cell c = it.next();
            boolean keep = retention.keep(prev != null && prev.sameKey(c), c.sequence);
            prev = c;
            if (keep) {
                kept.add(out == null ? c : out.copyOf(c));
            } else {
                droppedCells++;
                droppedBytes += c.dataSize();
            }
        }
        FlatSegment seg = new FlatSegment(kept.toArray(new Cell[0]), out == null ? List.of() : List.of(out));
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

    /** All cells of {@code segments} in internal-key order (sequences are unique across segments). */
    static Iterator<Cell> merged(List<Segment> segments) {
        if (segments.size() == 1) {
            return cellsOf(segments.get(0));
        }
        PriorityQueue<Head> heap = new PriorityQueue<>(segments.size(), (a, b) -> Cell.compare(a.cell, b.cell));
        for (Segment s : segments) {
            Iterator<Cell> it = cellsOf(s);
            if (it.hasNext()) {
                heap.add(new Head(it, it.next()));
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heap.isEmpty();
            }

            @Override
            public Cell next() {
                Head h = heap.poll();
                if (h == null) {
                    throw new NoSuchElementException();
                }
                Cell c = h.cell;
                if (h.it.hasNext()) {
                    h.cell = h.it.next();
                    heap.add(h);
                }
                return c;
            }
        };
    }

    private static final class Head {
        final Iterator<Cell> it;
        Cell cell;

        Head(Iterator<Cell> it, Cell cell) {
            this.it = it;
            this.cell = cell;
        }
    }
}
