package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;
import java.util.Comparator;

/**
 * One MemStore entry on the Java heap: a slice of a key buffer and a slice of a value buffer. Without
 * MSLAB the slices are whole arrays (the write batch's own copies); with MSLAB both live in one chunk,
 * value right after key. The cell is its own skiplist key, so no separate value node exists.
 */
final class Cell {
    /** Internal-key order: user key ascending, sequence descending. */
    static final Comparator<Cell> ORDER = Cell::compare;

    /**
     * Estimated heap of the Cell object: 12 B header, two references, four ints, a long and an int,
     * aligned to 48 B. Compressed oops assumed, as on every heap under 32 GiB.
     */
    static final int OBJECT_SIZE = 48;

    /** Heap of a cell's own key and value arrays beyond their bytes: two array headers plus alignment. */
    static final int ARRAYS_OVERHEAD = 16 + 16 + 8;

    /*
     * The key and sequence are not final only so that a get can reuse one probe per thread
     * (reusableProbe): a cell in a segment never changes after the skip list or array publishes it.
     */
    byte[] keyBuf;
    int keyOff;
    int keyLen;
    /** Null for a tombstone. */
    final byte[] valueBuf;
    final int valueOff;
    final int valueLen;
    long sequence;
    final int kind;

    Cell(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long sequence, int kind) {
        this.keyBuf = keyBuf;
        this.keyOff = keyOff;
        this.keyLen = keyLen;
        this.valueBuf = valueBuf;
        this.valueOff = valueOff;
        this.valueLen = valueLen;
        this.sequence = sequence;
        this.kind = kind;
    }

    /** A cell over arrays the caller hands over (no MSLAB, and the caller keeps no reference to them). */
    static Cell of(byte[] key, long sequence, int kind, byte[] value) {
        return new Cell(key, 0, key.length, value, 0, value == null ? 0 : value.length, sequence, kind);
    }

    /**
     * A cell that owns its arrays (no MSLAB): the key and value slices copied into arrays of their own, so
     * readers get them whole without a further copy.
     */
    static Cell copyOf(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long sequence,
            int kind) {
        byte[] key = Arrays.copyOfRange(keyBuf, keyOff, keyOff + keyLen);
        byte[] value = valueBuf == null ? null : Arrays.copyOfRange(valueBuf, valueOff, valueOff + valueLen);
        return new Cell(key, 0, keyLen, value, 0, valueLen, sequence, kind);
    }

    /** A search probe: orders before every version of {@code key} newer than {@code sequence}. */
    static Cell probe(byte[] key, long sequence) {
        return new Cell(key, 0, key.length, null, 0, 0, sequence, InternalKeys.KIND_PUT);
    }

    private static final ThreadLocal<Cell> PROBES = ThreadLocal.withInitial(() -> probe(new byte[0], 0));

    /**
     * This thread's probe, set to {@code (key, sequence)}: for a point lookup, which uses it for one
     * search and never lets it escape, so a get allocates no probe. Forget it with {@link #clearProbe}.
     */
    static Cell reusableProbe(byte[] key, long sequence) {
        Cell p = PROBES.get();
        p.keyBuf = key;
        p.keyLen = key.length;
        p.sequence = sequence;
        return p;
    }

    /** Drops this thread's probe's reference to the key it searched for. */
    static void clearProbe(Cell probe) {
        probe.keyBuf = null;
        probe.keyLen = 0;
    }

    int dataSize() {
        return keyLen + valueLen;
    }

    /** Whether the cell's bytes are slices of a shared chunk rather than arrays of its own. */
    boolean inChunk() {
        return keyOff != 0 || keyBuf.length != keyLen;
    }

    /** Points {@code view} at the key where the cell holds it (an array of its own or a chunk): no copy. */
    void keyView(Slice view) {
        view.set(keyBuf, keyOff, keyLen);
    }

    /** Points {@code view} at the value where the cell holds it; empty for a tombstone. */
    void valueView(Slice view) {
        if (valueBuf == null) {
            view.set(null);
        } else {
            view.set(valueBuf, valueOff, valueLen);
        }
    }

    /** The user key; a copy when the cell lives in a chunk, since a chunk is reused after its segment. */
    byte[] key() {
        return inChunk() ? Arrays.copyOfRange(keyBuf, keyOff, keyOff + keyLen) : keyBuf;
    }

    /** The value (null for a tombstone); copied out of a chunk for the same reason as {@link #key()}. */
    byte[] value() {
        if (valueBuf == null) {
            return null;
        }
        if (valueOff == 0 && valueBuf.length == valueLen) {
            return valueBuf;
        }
        return Arrays.copyOfRange(valueBuf, valueOff, valueOff + valueLen);
    }

    boolean keyEquals(byte[] key) {
        return Arrays.equals(keyBuf, keyOff, keyOff + keyLen, key, 0, key.length);
    }

    boolean sameKey(Cell o) {
        return Arrays.equals(keyBuf, keyOff, keyOff + keyLen, o.keyBuf, o.keyOff, o.keyOff + o.keyLen);
    }

    static int compare(Cell a, Cell b) {
        int c = Bytes.compare(a.keyBuf, a.keyOff, a.keyLen, b.keyBuf, b.keyOff, b.keyLen);
        return c != 0 ? c : Long.compare(b.sequence, a.sequence);
    }

    /** Compares this cell with the internal key (key, sequence) without allocating. */
    int compareTo(byte[] key, long sequence) {
        int c = Bytes.compare(keyBuf, keyOff, keyLen, key, 0, key.length);
        return c != 0 ? c : Long.compare(sequence, this.sequence);
    }
}
