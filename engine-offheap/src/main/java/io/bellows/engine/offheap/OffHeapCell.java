package io.bellows.engine.offheap;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.iter.Slice;
import io.netty.buffer.ByteBuf;
import java.util.Comparator;

/**
 * One entry of an off-heap active segment: a Java object (the skiplist needs one) pointing at the
 * cell's record in an MSLAB chunk. Only the small active segment has these; flattening turns them into
 * 16-byte index entries and drops them. A probe for a lookup carries a heap key instead of a record.
 */
final class OffHeapCell {
    /** Internal-key order: user key ascending, sequence descending. */
    static final Comparator<OffHeapCell> ORDER = OffHeapCell::compare;

    /**
     * Estimated heap of one cell object: 12 B header, two references, four ints and a long, aligned
     * to 48 B with compressed oops.
     */
    static final int OBJECT_SIZE = 48;

    final ByteBuf buf;
    /** Number of the record's chunk within its MSLAB. */
    final int chunkNo;
    /** Offset of the record (its header) within the chunk. */
    final int record;
    /*
     * keyLen, sequence and probeKey are not final only so that a get can reuse one probe per thread
     * (reusableProbe): a cell in a segment never changes after the skip list publishes it.
     */
    int keyLen;
    long sequence;
    final int kind;
    /** Non-null only for a probe: the key searched for. */
    byte[] probeKey;

    OffHeapCell(ByteBuf buf, int chunkNo, int record, int keyLen, long sequence, int kind) {
        this.buf = buf;
        this.chunkNo = chunkNo;
        this.record = record;
        this.keyLen = keyLen;
        this.sequence = sequence;
        this.kind = kind;
        this.probeKey = null;
    }

    private OffHeapCell(byte[] probeKey, long sequence) {
        this.buf = null;
        this.chunkNo = -1;
        this.record = -1;
        this.keyLen = probeKey.length;
        this.sequence = sequence;
        this.kind = 0;
        this.probeKey = probeKey;
    }

    /** A search probe: orders before every version of {@code key} newer than {@code sequence}. */
    static OffHeapCell probe(byte[] key, long sequence) {
        return new OffHeapCell(key, sequence);
    }

    private static final ThreadLocal<OffHeapCell> PROBES = ThreadLocal.withInitial(() -> probe(new byte[0], 0));

    /**
     * This thread's probe, set to {@code (key, sequence)}, for a point lookup, which uses it for one search
     * and never lets it escape: a get allocates no probe. Forget the key with {@link #clearProbe}.
     */
    static OffHeapCell reusableProbe(byte[] key, long sequence) {
        OffHeapCell p = PROBES.get();
        p.probeKey = key;
        p.keyLen = key.length;
        p.sequence = sequence;
        return p;
    }

    static void clearProbe(OffHeapCell probe) {
        probe.probeKey = EMPTY;
        probe.keyLen = 0;
    }

    private static final byte[] EMPTY = new byte[0];

    /** Sets {@code out} to this cell ({@link LookupScratch}: a small value costs the get no array). */
    void lookup(Lookup out) {
        LookupScratch.set(out, sequence, kind, buf, keyOffset() + keyLen, kind == InternalKeys.KIND_PUT ? valueLength() : 0);
    }

    int keyOffset() {
        return record + OffHeapMslab.HEADER;
    }

    int valueLength() {
        return OffHeapMslab.valueLength(buf, record);
    }

    /** Points {@code out} at a copy of the key in {@code scratch}. */
    void keyView(ScratchView scratch, Slice out) {
        scratch.copy(buf, keyOffset(), keyLen, out);
    }

    /** Points {@code out} at a copy of the value in {@code scratch}; empty for a tombstone. */
    void valueView(ScratchView scratch, Slice out) {
        scratch.copy(buf, keyOffset() + keyLen, kind == InternalKeys.KIND_PUT ? valueLength() : 0, out);
    }

    byte[] key() {
        return OffHeapKeys.copy(buf, keyOffset(), keyLen);
    }

    /** The value, or null for a tombstone. */
    byte[] value(boolean put) {
        return put ? OffHeapKeys.copy(buf, keyOffset() + keyLen, valueLength()) : null;
    }

    boolean keyEquals(byte[] key) {
        return keyLen == key.length && OffHeapKeys.compare(buf, keyOffset(), keyLen, key) == 0;
    }

    static int compare(OffHeapCell a, OffHeapCell b) {
        int c;
        if (a.probeKey != null) {
            c = b.probeKey != null ? java.util.Arrays.compareUnsigned(a.probeKey, b.probeKey)
                    : -OffHeapKeys.compare(b.buf, b.keyOffset(), b.keyLen, a.probeKey);
        } else if (b.probeKey != null) {
            c = OffHeapKeys.compare(a.buf, a.keyOffset(), a.keyLen, b.probeKey);
        } else {
            c = OffHeapKeys.compare(a.buf, a.keyOffset(), a.keyLen, b.buf, b.keyOffset(), b.keyLen);
        }
        return c != 0 ? c : Long.compare(b.sequence, a.sequence);
    }
}
