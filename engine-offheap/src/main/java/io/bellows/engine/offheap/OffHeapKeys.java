package io.bellows.engine.offheap;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unsigned lexicographic comparison of keys in off-heap chunks, eight bytes at a time and without
 * copying them to the heap: every skiplist insert, binary-search probe and merge step runs it, so it
 * reads big-endian longs in place rather than byte by byte.
 */
final class OffHeapKeys {
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private OffHeapKeys() {}

    /** Compares {@code aLen} bytes at {@code aOff} of {@code a} with the heap key {@code b}. */
    static int compare(ByteBuf a, int aOff, int aLen, byte[] b) {
        int n = Math.min(aLen, b.length);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = a.getLong(aOff + i);
            long y = (long) LONG_BE.get(b, i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int c = (a.getByte(aOff + i) & 0xff) - (b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return aLen - b.length;
    }

    /** Compares two off-heap keys. */
    static int compare(ByteBuf a, int aOff, int aLen, ByteBuf b, int bOff, int bLen) {
        int n = Math.min(aLen, bLen);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = a.getLong(aOff + i);
            long y = b.getLong(bOff + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int c = (a.getByte(aOff + i) & 0xff) - (b.getByte(bOff + i) & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return aLen - bLen;
    }

    static byte[] copy(ByteBuf b, int off, int len) {
        byte[] out = new byte[len];
        b.getBytes(off, out);
        return out;
    }
}
