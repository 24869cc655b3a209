package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;

/** One entry on its way into an HTable: the internal entry plus its hash fields and encoded size. */
final class Item {
    final byte[] key;
    final long seq;
    final int kind;
    final byte[] value;
    final long hi;
    final long lo;
    /** Home bucket; set once the table's bucket count is chosen, when it is written. */
    int home;
    final int size;

    Item(byte[] key, long seq, int kind, byte[] value, long hi, long lo, int home) {
        this.key = key;
        this.seq = seq;
        this.kind = kind;
        this.value = value;
        this.hi = hi;
        this.lo = lo;
        this.home = home;
        this.size = HTableFormat.itemSize(key.length, value == null ? 0 : value.length, seq,
                kind == InternalKeys.KIND_DELETE);
    }

    /** Encodes the item at {@code b[off]}; returns the offset after it. */
    int encode(byte[] b, int off) {
        boolean tombstone = kind == InternalKeys.KIND_DELETE;
        off = Coding.putVarLong(b, off, key.length);
        off = Coding.putVarLong(b, off, tombstone ? 0 : value.length + 1L);
        off = Coding.putVarLong(b, off, seq);
        System.arraycopy(key, 0, b, off, key.length);
        off += key.length;
        if (!tombstone) {
            System.arraycopy(value, 0, b, off, value.length);
            off += value.length;
        }
        return off;
    }
}
