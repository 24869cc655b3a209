package io.bellows.engine.memstore;

import io.bellows.engine.key.InternalKeys;
import java.util.Comparator;

/**
 * One MemStore entry on the Java heap. The key array also orders the skiplist, so a cell is the
 * skiplist key and no separate value node exists.
 */
final class Cell {
    /** Internal-key order: user key ascending, sequence descending. */
    static final Comparator<Cell> ORDER = (a, b) -> InternalKeys.compare(a.key, a.sequence, b.key, b.sequence);

    /**
     * Estimated heap of one cell beyond its key and value bytes: the Cell object (12 B header, two
     * references, a long, an int: 32 B aligned), two array headers (16 B each) and the alignment waste of
     * the arrays (4 B on average each). Compressed oops assumed, as on every heap under 32 GiB.
     */
    static final int CELL_OVERHEAD = 32 + 16 + 16 + 8;

    final byte[] key;
    final long sequence;
    final int kind;
    final byte[] value;

    Cell(byte[] key, long sequence, int kind, byte[] value) {
        this.key = key;
        this.sequence = sequence;
        this.kind = kind;
        this.value = value;
    }

    int dataSize() {
        return key.length + (value == null ? 0 : value.length);
    }
}
