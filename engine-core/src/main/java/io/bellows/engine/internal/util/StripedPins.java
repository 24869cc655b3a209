package io.bellows.engine.internal.util;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Pins that point reads take on a shared object (a version, a MemStore state) without touching a
 * counter other threads touch: each thread counts on its own stripe, a cache line of its own, as
 * RocksDB's thread-local SuperVersion spares its gets the shared reference count. A pin is taken and
 * dropped by the same thread, so a stripe never reads below the pins its threads hold; the owner is
 * unreferenced once its ordinary count is zero and every stripe reads zero ({@link #none()}).
 *
 * <p>The protocol that makes this safe (the owner's code follows it): a reader pins the current
 * object, then reads "current" again and keeps the pin only if it is still the same object; the owner,
 * once replaced and out of ordinary references, frees only if {@link #none()}; a reader dropping a pin
 * on a replaced object checks {@link #none()} itself. Pins taken before the replacement are seen by any
 * check after it (the atomics are sequentially consistent); one taken after it is dropped at once by
 * its reader, who never reads through it.
 */
public final class StripedPins {
    /**
     * Longs per stripe: 128 bytes, so two stripes never share a cache line, nor a pair of lines that the
     * adjacent-line prefetcher fetches together (the spacing of the JDK's {@code @Contended}).
     */
    private static final int PAD = 16;
    /** A power of two, at least twice the cores, so that few threads share a stripe. */
    static final int STRIPES = Math.min(64, Integer.highestOneBit(Math.max(4,
            Runtime.getRuntime().availableProcessors() * 2 - 1) << 1));
    private final AtomicLongArray counts = new AtomicLongArray(STRIPES * PAD);

    /** The calling thread's stripe: fixed for the thread, so its pin and unpin meet on one counter. */
    public static int stripe() {
        long id = Thread.currentThread().getId();
        return (int) ((id * 0x9E3779B97F4A7C15L) >>> 58) & (STRIPES - 1);
    }

    public void pin(int stripe) {
        counts.getAndIncrement(stripe * PAD);
    }

    public void unpin(int stripe) {
        counts.getAndDecrement(stripe * PAD);
    }

    /** Whether no thread holds a pin. */
    public boolean none() {
        for (int i = 0; i < STRIPES; i++) {
            if (counts.get(i * PAD) != 0) {
                return false;
            }
        }
        return true;
    }
}
