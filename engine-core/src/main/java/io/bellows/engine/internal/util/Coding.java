package io.bellows.engine.internal.util;

/**
 * Little-endian fixed-width and LEB128 varint encoding, as used by every Bellows file format.
 * Little-endian matches LevelDB's encoding and the x86/ARM native order, so fixed fields need no swap.
 */
public final class Coding {
    private Coding() {}

    public static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    public static int getInt(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8 | (b[off + 2] & 0xff) << 16 | (b[off + 3] & 0xff) << 24;
    }

    public static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) v);
        putInt(b, off + 4, (int) (v >>> 32));
    }

    public static long getLong(byte[] b, int off) {
        return (getInt(b, off) & 0xffffffffL) | ((long) getInt(b, off + 4) << 32);
    }

    public static void putShort(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    public static int getShort(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    /** Number of bytes {@link #putVarLong} writes for {@code v}. */
    public static int varLongSize(long v) {
        int n = 1;
        while ((v & ~0x7fL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Writes {@code v} as an unsigned LEB128 varint; returns the offset after it. */
    public static int putVarLong(byte[] b, int off, long v) {
        while ((v & ~0x7fL) != 0) {
            b[off++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[off++] = (byte) v;
        return off;
    }

    public static int putVarInt(byte[] b, int off, int v) {
        return putVarLong(b, off, v & 0xffffffffL);
    }

    /**
     * Decodes a varint at {@code pos[0]} in {@code b} bounded by {@code limit}, advancing {@code pos[0]}.
     * Throws {@link IllegalStateException} on a truncated or over-long varint; callers turn that into a
     * corruption error naming their file.
     */
    public static long getVarLong(byte[] b, int[] pos, int limit) {
        long result = 0;
        int p = pos[0];
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= limit) {
                throw new IllegalStateException("truncated varint at " + pos[0]);
            }
            int x = b[p++];
            result |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                pos[0] = p;
                return result;
            }
        }
        throw new IllegalStateException("varint too long at " + pos[0]);
    }

    /**
     * The offset just past the varint at {@code p} in {@code b}, bounded by {@code limit}; throws as
     * {@link #getVarLong}. With {@link #varLongAt}, decodes without a position array (read paths that must
     * not allocate).
     */
    public static int skipVarint(byte[] b, int p, int limit) {
        for (int i = 0; i < 10; i++) {
            if (p + i >= limit) {
                throw new IllegalStateException("truncated varint at " + p);
            }
            if ((b[p + i] & 0x80) == 0) {
                return p + i + 1;
            }
        }
        throw new IllegalStateException("varint too long at " + p);
    }

    /** The varint at {@code p}, which {@link #skipVarint} has found whole. */
    public static long varLongAt(byte[] b, int p) {
        long result = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[p++];
            result |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return result;
            }
        }
    }

    public static int getVarInt(byte[] b, int[] pos, int limit) {
        long v = getVarLong(b, pos, limit);
        if (v > 0xffffffffL) {
            throw new IllegalStateException("varint32 overflow at " + pos[0]);
        }
        return (int) v;
    }
}
