package io.bellows.engine.offheap;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.netty.buffer.ByteBuf;

/**
 * Hands a point lookup an off-heap value without an array of its own: small values are copied into a
 * per-thread scratch array, which the reader copies out again (into its result or the caller's buffer)
 * before its next lookup ({@link Lookup}'s contract), so a get into a caller's buffer allocates nothing.
 * Values over {@link #LIMIT} get an array of their own, so no thread keeps a large scratch for good.
 */
final class LookupScratch {
    static final int LIMIT = 4096;
    private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[][] {new byte[128]});

    private LookupScratch() {}

    /** Sets {@code out} to an entry whose value (for a PUT) is {@code len} bytes of {@code b} at {@code off}. */
    static void set(Lookup out, long sequence, int kind, ByteBuf b, int off, int len) {
        if (kind != InternalKeys.KIND_PUT) {
            out.set(sequence, kind, null);
            return;
        }
        if (len > LIMIT) {
            out.set(sequence, kind, OffHeapKeys.copy(b, off, len));
            return;
        }
        byte[][] holder = SCRATCH.get();
        if (holder[0].length < len) {
            holder[0] = new byte[Math.max(len, 2 * holder[0].length)];
        }
        b.getBytes(off, holder[0], 0, len);
        out.set(sequence, kind, holder[0], 0, len);
    }
}
