package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.key.InternalKeys;
import java.util.Comparator;

/**
 * An entry read back from an HTable. {@code size} is its encoded size in a bucket (0 for overflow
 * items), which garbage sampling weighs entries by.
 */
public record Entry(byte[] key, long seq, int kind, byte[] value, int size) {
    /** Internal-key order: user key ascending, then sequence descending. */
    public static final Comparator<Entry> ORDER = (a, b) -> InternalKeys.compare(a.key, a.seq, b.key, b.seq);
}
