package io.bellows.engine.offheap;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.IndexedIterator;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.iter.Slice;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Accordion's serialized segment (§3.4, Figure 4b): an immutable segment whose index, like its data,
 * lives in off-heap chunks. Entry i is a 16-byte {@link IndexChunks} entry pointing straight at its
 * record through this segment's table of data chunks; there is no Java object per cell, so the heap
 * holds only the two chunk tables however many cells there are.
 *
 * <p>Lookups binary-search the index comparing keys in place; a probe allocates nothing until it
 * copies out the value it found.
 *
 * <p>Thread safety: immutable once built; published through the MemStore state.
 */
final class SerializedSegment implements ImmutableSegment {
    /** Heap of the segment object, its two arrays' headers, its statistics and memory list. */
    private static final int FIXED_OVERHEAD = 160;

    private final ByteBuf[] data;
    private final IndexChunks index;
    private final List<SegmentMemory> dataMemory;
    private final List<SegmentMemory> memory;
    private final int entries;
    private final long dataSize;
    private final long minSeq;
    private final long maxSeq;
    private final long uniqueKeys;
    private final long deletions;

    /**
     * @param data the chunks index entries point into, by number
     * @param index sealed
     * @param dataMemory the memories {@code data}'s chunks belong to
     */
    SerializedSegment(ByteBuf[] data, IndexChunks index, List<SegmentMemory> dataMemory, long dataSize, long minSeq,
            long maxSeq, long uniqueKeys) {
        this.data = data;
        this.index = index;
        this.dataMemory = dataMemory;
        List<SegmentMemory> all = new ArrayList<>(dataMemory.size() + 1);
        all.add(index);
        all.addAll(dataMemory);
        this.memory = List.copyOf(all);
        this.entries = index.count();
        this.dataSize = dataSize;
        this.minSeq = minSeq;
        this.maxSeq = maxSeq;
        this.uniqueKeys = uniqueKeys;
        long tombstones = 0;
        for (int i = 0; i < entries; i++) {
            if ((index.trailer(i) & 0xff) == InternalKeys.KIND_DELETE) {
                tombstones++;
            }
        }
        this.deletions = tombstones;
    }

    ByteBuf[] dataChunks() {
        return data;
    }

    /** The memories holding this segment's data (not its index): a merge over it shares them. */
    List<SegmentMemory> dataMemory() {
        return dataMemory;
    }

    int size() {
        return entries;
    }

    ByteBuf buf(int i) {
        return data[index.chunkNo(i)];
    }

    int chunkNo(int i) {
        return index.chunkNo(i);
    }

    int record(int i) {
        return index.record(i);
    }

    long trailer(int i) {
        return index.trailer(i);
    }

    /** Compares entry i with the internal key (key, seq). */
    private int compareTo(int i, byte[] key, long seq) {
        ByteBuf b = buf(i);
        int rec = index.record(i);
        int c = OffHeapKeys.compare(b, rec + OffHeapMslab.HEADER, OffHeapMslab.keyLength(b, rec), key);
        return c != 0 ? c : Long.compare(seq, InternalKeys.sequence(index.trailer(i)));
    }

    /** Index of the first entry at or after (key, seq) in internal order, or {@link #size()}. */
    int ceiling(byte[] key, long seq) {
        int lo = 0;
        int hi = entries;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareTo(mid, key, seq) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private boolean keyEquals(int i, byte[] key) {
        ByteBuf b = buf(i);
        int rec = index.record(i);
        int len = OffHeapMslab.keyLength(b, rec);
        return len == key.length && OffHeapKeys.compare(b, rec + OffHeapMslab.HEADER, len, key) == 0;
    }

    byte[] key(int i) {
        ByteBuf b = buf(i);
        int rec = index.record(i);
        return OffHeapKeys.copy(b, rec + OffHeapMslab.HEADER, OffHeapMslab.keyLength(b, rec));
    }

    /** The value of entry i, or null for a tombstone. */
    byte[] value(int i, int kind) {
        if (kind != InternalKeys.KIND_PUT) {
            return null;
        }
        ByteBuf b = buf(i);
        int rec = index.record(i);
        int keyLen = OffHeapMslab.keyLength(b, rec);
        return OffHeapKeys.copy(b, rec + OffHeapMslab.HEADER + keyLen, OffHeapMslab.valueLength(b, rec));
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        int i = ceiling(key, seq);
        if (i == entries || !keyEquals(i, key)) {
            return false;
        }
        long t = index.trailer(i);
        int kind = InternalKeys.kind(t);
        if (kind != InternalKeys.KIND_PUT) {
            out.set(InternalKeys.sequence(t), kind, null);
            return true;
        }
        ByteBuf b = buf(i);
        int rec = index.record(i);
        int keyLen = OffHeapMslab.keyLength(b, rec);
        LookupScratch.set(out, InternalKeys.sequence(t), kind, b, rec + OffHeapMslab.HEADER + keyLen,
                OffHeapMslab.valueLength(b, rec));
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new IndexIterator();
    }

    @Override
    public long uniqueKeys() {
        return uniqueKeys;
    }

    @Override
    public long dataSize() {
        return dataSize;
    }

    @Override
    public long heapSize() {
        return FIXED_OVERHEAD + 4L * (data.length + index.chunkCount());
    }

    /** Index entries plus the records they point at (headers, keys, values). */
    @Override
    public long offHeapSize() {
        return (long) entries * (IndexChunks.ENTRY + OffHeapMslab.HEADER) + dataSize;
    }

    @Override
    public long entries() {
        return entries;
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
        return "serialized";
    }

    @Override
    public List<SegmentMemory> memory() {
        return memory;
    }

    private final class IndexIterator extends IndexedIterator {
        private final ScratchView keyScratch = new ScratchView(32);
        private final ScratchView valueScratch = new ScratchView(128);

        IndexIterator() {
            super(entries);
        }

        @Override
        protected int ceiling(byte[] key, long sequence) {
            return SerializedSegment.this.ceiling(key, sequence);
        }

        @Override
        protected byte[] keyAt(int i) {
            return SerializedSegment.this.key(i);
        }

        @Override
        protected byte[] valueAt(int i) {
            return SerializedSegment.this.value(i, kindAt(i));
        }

        @Override
        protected void keyView(int i, Slice view) {
            ByteBuf b = buf(i);
            int rec = index.record(i);
            keyScratch.copy(b, rec + OffHeapMslab.HEADER, OffHeapMslab.keyLength(b, rec), view);
        }

        @Override
        protected void valueView(int i, Slice view) {
            if (kindAt(i) != InternalKeys.KIND_PUT) {
                view.set(null);
                return;
            }
            ByteBuf b = buf(i);
            int rec = index.record(i);
            int keyLen = OffHeapMslab.keyLength(b, rec);
            valueScratch.copy(b, rec + OffHeapMslab.HEADER + keyLen, OffHeapMslab.valueLength(b, rec), view);
        }

        @Override
        protected long sequenceAt(int i) {
            return InternalKeys.sequence(index.trailer(i));
        }

        @Override
        protected int kindAt(int i) {
            return InternalKeys.kind(index.trailer(i));
        }
    }
}
