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

    public static int getVarInt(byte[] b, int[] pos, int limit) {
        long v = getVarLong(b, pos, limit);
        if (v > 0xffffffffL) {
            throw new IllegalStateException("varint32 overflow at " + pos[0]);
        }
        return (int) v;
    }
}
