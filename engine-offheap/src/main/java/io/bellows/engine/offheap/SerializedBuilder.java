package io.bellows.engine.offheap;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.Gallop;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Builds serialized segments: by flattening an active segment or merging pipeline segments (new index
 * over the same records, nothing copied), or by compacting them (survivors copied into a fresh MSLAB).
 * The merge walks its inputs in internal-key order without allocating per entry: each input is a
 * cursor over records in place, and the smallest is found by a linear scan, since a pipeline holds a
 * handful of segments; the largest serialized input is not walked but galloped into (mergeInto).
 *
 * <p>Builders run on the in-memory compaction thread and never wait for chunks: when the pool is
 * exhausted they fail with a {@link io.bellows.engine.MemoryLimitException}, release what they took,
 * and the pipeline stays as it was.
 */
final class SerializedBuilder {
    private SerializedBuilder() {}

    /** Flattening is a merge of one segment. */
    static SerializedSegment flatten(ChunkPool pool, Segment segment) {
        return merge(pool, List.of(segment));
    }

    /** One serialized index over every record of {@code segments}; shares their data memory. */
    static SerializedSegment merge(ChunkPool pool, List<Segment> segments) {
        SerializedSegment largest = null;
        for (Segment s : segments) {
            if (s instanceof SerializedSegment && (largest == null || s.entries() > largest.entries())) {
                largest = (SerializedSegment) s;
            }
        }
        if (segments.size() > 1 && largest != null) {
            return mergeInto(pool, largest, segments);
        }
        Inputs in = new Inputs(segments, null);
        IndexChunks index = new IndexChunks(pool, false);
        try {
            Stats st = new Stats();
            for (Cursor c; (c = in.next()) != null; ) {
                st.add(c, in.sameKeyAsPrevious);
                index.append(c.base + c.chunkNo, c.record, c.trailer);
            }
            return seal(in, index, st.dataSize, st.minSeq, st.maxSeq, st.uniqueKeys);
        } catch (RuntimeException | Error e) {
            index.release();
            throw e;
        }
    }

    /**
     * Merges the other inputs into {@code big}, the largest serialized one, without reading its records:
     * each entry of the others finds its place in big's index by galloping (exponential, then binary
     * search), and big's entries between places are copied from its index as they are. Big's data
     * chunks come first in the merged table, so its entries keep their chunk numbers, and its figures
     * carry over. A linear merge of all inputs read every record of big at every merge, and the
     * pipeline's big segment is merged again each time S segments pile up in front of it (a profile of
     * a 3M-put fill had the in-memory thread busier than the writer, all of it comparing keys).
     */
    private static SerializedSegment mergeInto(ChunkPool pool, SerializedSegment big, List<Segment> segments) {
        List<Segment> others = new ArrayList<>(segments.size() - 1);
        for (Segment s : segments) {
            if (s != big) {
                others.add(s);
            }
        }
        Inputs in = new Inputs(others, big);
        IndexChunks index = new IndexChunks(pool, false);
        try {
            Stats st = new Stats();
            EntryGallop search = new EntryGallop(big);
            long shared = 0;
            int b = 0;
            int n = big.size();
            for (Cursor c; (c = in.next()) != null; ) {
                int j = search.target(c).firstAfter(b, n);
                for (; b < j; b++) {
                    index.append(big.chunkNo(b), big.record(b), big.trailer(b));
                }
                // A key's versions are adjacent in the merged order: if big holds it, a neighbour has it.
                if (!in.sameKeyAsPrevious && (sameKey(big, j - 1, c) || sameKey(big, j, c))) {
                    shared++;
                }
                st.add(c, in.sameKeyAsPrevious);
                index.append(c.base + c.chunkNo, c.record, c.trailer);
            }
            for (; b < n; b++) {
                index.append(big.chunkNo(b), big.record(b), big.trailer(b));
            }
            return seal(in, index, big.dataSize() + st.dataSize, Math.min(big.minSequence(), st.minSeq),
                    Math.max(big.maxSequence(), st.maxSeq), big.uniqueKeys() + st.uniqueKeys - shared);
        } catch (RuntimeException | Error e) {
            index.release();
            throw e;
        }
    }

    private static SerializedSegment seal(Inputs in, IndexChunks index, long dataSize, long minSeq, long maxSeq,
            long uniqueKeys) {
        index.seal();
        for (SegmentMemory m : in.dataMemory) {
            m.retain();
        }
        return new SerializedSegment(in.table(), index, List.copyOf(in.dataMemory), dataSize, minSeq, maxSeq,
                uniqueKeys);
    }

    /** A galloping search over the large input's entries, reused for every entry placed in it. */
    private static final class EntryGallop extends Gallop {
        private final SerializedSegment a;
        private Cursor target;

        EntryGallop(SerializedSegment a) {
            this.a = a;
        }

        EntryGallop target(Cursor c) {
            target = c;
            return this;
        }

        @Override
        protected int compareAt(int i) {
            ByteBuf buf = a.buf(i);
            int rec = a.record(i);
            Cursor c = target;
            int k = OffHeapKeys.compare(buf, rec + OffHeapMslab.HEADER, OffHeapMslab.keyLength(buf, rec), c.buf,
                    c.record + OffHeapMslab.HEADER, c.keyLen);
            return k != 0 ? k : Long.compare(InternalKeys.sequence(c.trailer), InternalKeys.sequence(a.trailer(i)));
        }
    }

    private static boolean sameKey(SerializedSegment a, int i, Cursor c) {
        if (i < 0 || i >= a.size()) {
            return false;
        }
        ByteBuf buf = a.buf(i);
        int rec = a.record(i);
        int len = OffHeapMslab.keyLength(buf, rec);
        return len == c.keyLen
                && OffHeapKeys.compare(buf, rec + OffHeapMslab.HEADER, len, c.buf, c.record + OffHeapMslab.HEADER, len) == 0;
    }

    /** Merges {@code segments}, copying the versions {@code retention} keeps into fresh memory. */
    static Compacted compact(ChunkPool pool, List<Segment> segments, Retention retention) {
        Inputs in = new Inputs(segments, null);
        IndexChunks index = new IndexChunks(pool, false);
        OffHeapMslab out = new OffHeapMslab(pool, false);
        try {
            Stats st = new Stats();
            long droppedCells = 0;
            long droppedBytes = 0;
            for (Cursor c; (c = in.next()) != null; ) {
                if (retention.keep(in.sameKeyAsPrevious, InternalKeys.sequence(c.trailer))) {
                    st.add(c, in.sameKeyAsPrevious);
                    out.copy(c.buf, c.record);
                    index.append(out.lastChunkNo, out.lastOffset, c.trailer);
                } else {
                    droppedCells++;
                    droppedBytes += c.keyLen + OffHeapMslab.valueLength(c.buf, c.record);
                }
            }
            index.seal();
            ByteBuf[] table = new ByteBuf[out.chunkCount()];
            for (int i = 0; i < table.length; i++) {
                table[i] = out.chunk(i).buf;
            }
            SerializedSegment seg = new SerializedSegment(table, index, List.of(out), st.dataSize, st.minSeq,
                    st.maxSeq, st.uniqueKeys);
            return new Compacted(seg, droppedCells, droppedBytes);
        } catch (RuntimeException | Error e) {
            index.release();
            out.release();
            throw e;
        }
    }

    /** Sizes and sequence range of the entries written, and their distinct keys. */
    private static final class Stats {
        long dataSize;
        long minSeq = Long.MAX_VALUE;
        long maxSeq;
        long uniqueKeys;

        void add(Cursor c, boolean sameKey) {
            dataSize += c.keyLen + OffHeapMslab.valueLength(c.buf, c.record);
            long seq = InternalKeys.sequence(c.trailer);
            minSeq = Math.min(minSeq, seq);
            maxSeq = Math.max(maxSeq, seq);
            if (!sameKey) {
                uniqueKeys++;
            }
        }
    }

    /** The inputs of a build: one cursor per segment, their chunk tables concatenated. */
    private static final class Inputs {
        final Cursor[] cursors;
        final List<ByteBuf> table = new ArrayList<>();
        final List<SegmentMemory> dataMemory = new ArrayList<>();
        /** Whether the entry {@link #next()} returned has the user key of the one before it. */
        boolean sameKeyAsPrevious;
        private ByteBuf prevBuf;
        private int prevKeyOff;
        private int prevKeyLen;
        private Cursor pending;

        /** @param first a segment whose data chunks lead the table but which gets no cursor (null: none) */
        Inputs(List<Segment> segments, SerializedSegment first) {
            if (first != null) {
                table.addAll(List.of(first.dataChunks()));
                dataMemory.addAll(first.dataMemory());
            }
            cursors = new Cursor[segments.size()];
            for (int i = 0; i < cursors.length; i++) {
                Segment s = segments.get(i);
                int base = table.size();
                if (s instanceof OffHeapSkipListSegment) {
                    OffHeapSkipListSegment sk = (OffHeapSkipListSegment) s;
                    for (int c = 0; c < sk.mslab.chunkCount(); c++) {
                        table.add(sk.mslab.chunk(c).buf);
                    }
                    dataMemory.add(sk.mslab);
                    cursors[i] = new SkipListCursor(base, sk.cells());
                } else if (s instanceof SerializedSegment) {
                    SerializedSegment se = (SerializedSegment) s;
                    table.addAll(List.of(se.dataChunks()));
                    dataMemory.addAll(se.dataMemory());
                    cursors[i] = new SerializedCursor(base, se);
                } else {
                    throw new IllegalArgumentException("segment " + s.getClass().getName()
                            + " is not of the OFF_HEAP layout");
                }
                cursors[i].advance();
            }
        }

        ByteBuf[] table() {
            return table.toArray(new ByteBuf[0]);
        }

        /**
         * The next entry in internal-key order, or null; sequences are unique across segments. The
         * entry stays readable until the next call, which advances its cursor first.
         */
        Cursor next() {
            if (pending != null) {
                pending.advance();
                pending = null;
            }
            Cursor min = null;
            for (Cursor c : cursors) {
                if (c.valid && (min == null || compare(c, min) < 0)) {
                    min = c;
                }
            }
            if (min == null) {
                return null;
            }
            int keyOff = min.record + OffHeapMslab.HEADER;
            sameKeyAsPrevious = prevBuf != null
                    && OffHeapKeys.compare(prevBuf, prevKeyOff, prevKeyLen, min.buf, keyOff, min.keyLen) == 0;
            prevBuf = min.buf;
            prevKeyOff = keyOff;
            prevKeyLen = min.keyLen;
            pending = min;
            return min;
        }

        private static int compare(Cursor a, Cursor b) {
            int c = OffHeapKeys.compare(a.buf, a.record + OffHeapMslab.HEADER, a.keyLen, b.buf,
                    b.record + OffHeapMslab.HEADER, b.keyLen);
            return c != 0 ? c : Long.compare(InternalKeys.sequence(b.trailer), InternalKeys.sequence(a.trailer));
        }
    }

    /** A position in one input: the record it points at, its chunk number there and its trailer. */
    private abstract static class Cursor {
        final int base;
        boolean valid;
        ByteBuf buf;
        int chunkNo;
        int record;
        int keyLen;
        long trailer;

        Cursor(int base) {
            this.base = base;
        }

        abstract void advance();
    }

    private static final class SkipListCursor extends Cursor {
        private final Iterator<OffHeapCell> it;

        SkipListCursor(int base, Iterator<OffHeapCell> it) {
            super(base);
            this.it = it;
        }

        @Override
        void advance() {
            valid = it.hasNext();
            if (valid) {
                OffHeapCell c = it.next();
                buf = c.buf;
                chunkNo = c.chunkNo;
                record = c.record;
                keyLen = c.keyLen;
                trailer = InternalKeys.trailer(c.sequence, c.kind);
            }
        }
    }

    private static final class SerializedCursor extends Cursor {
        private final SerializedSegment s;
        private int i = -1;

        SerializedCursor(int base, SerializedSegment s) {
            super(base);
            this.s = s;
        }

        @Override
        void advance() {
            i++;
            valid = i < s.size();
            if (valid) {
                chunkNo = s.chunkNo(i);
                buf = s.dataChunks()[chunkNo];
                record = s.record(i);
                keyLen = OffHeapMslab.keyLength(buf, record);
                trailer = s.trailer(i);
            }
        }
    }
}
