package io.bellows.engine.internal.key;

import io.bellows.engine.Engine;
import io.bellows.engine.internal.util.Bytes;

/**
 * The internal key: a user key plus an 8-byte trailer {@code sequence << 8 | kind}. Internal keys
 * order by user key ascending, then sequence descending, so the newest version of a key comes first
 * and a seek to {@code (key, snapshotSeq)} lands on the newest version a snapshot may read.
 *
 * <p>Components keep the user key, sequence and kind as separate fields rather than concatenated
 * bytes; the packed trailer only exists in file formats.
 */
public final class InternalKeys {
    /** Kind of a tombstone. Lower than PUT so that, at equal sequence, ordering is still total. */
    public static final int KIND_DELETE = 0;
    public static final int KIND_PUT = 1;

    /** Sequences use 56 bits of the trailer. */
    public static final long MAX_SEQUENCE = (1L << 56) - 1;

    /** Largest user key length: the public limit, also enforced when reading files. */
    public static final int MAX_KEY_LENGTH = Engine.MAX_KEY_LENGTH;

    private InternalKeys() {}

    public static long trailer(long sequence, int kind) {
        return sequence << 8 | kind;
    }

    public static long sequence(long trailer) {
        return trailer >>> 8;
    }

    public static int kind(long trailer) {
        return (int) (trailer & 0xff);
    }

    public static boolean validKind(int kind) {
        return kind == KIND_PUT || kind == KIND_DELETE;
    }

    /** Compares (aKey, aSeq) with (bKey, bSeq) in internal-key order. */
    public static int compare(byte[] aKey, long aSeq, byte[] bKey, long bSeq) {
        int c = Bytes.compare(aKey, bKey);
        if (c != 0) {
            return c;
        }
        return Long.compare(bSeq, aSeq);
    }
}
