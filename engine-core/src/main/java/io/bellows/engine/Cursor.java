package io.bellows.engine;

/**
 * Iteration over live keys in unsigned-lexicographic order, both ways, within the bounds and at the
 * snapshot of the {@link ReadOptions} it was created with (the latest state when it was created if
 * none). The idioms are {@code for (c.seek(k); c.isValid(); c.next())} and, descending,
 * {@code for (c.seekForPrev(k); c.isValid(); c.prev())}. The direction may change at any position:
 * {@code prev()} after {@code next()} returns the key before, as in RocksDB. Not thread-safe; one left
 * unclosed is reported and released when it becomes unreachable.
 */
public interface Cursor extends AutoCloseable {
    /** Positions at the first key {@code >= key} (clamped to the lower bound). */
    void seek(byte[] key);

    /** Positions at the last key {@code <= key} (clamped to the upper bound: never at or past it). */
    void seekForPrev(byte[] key);

    /** Positions at the first key (at or after the lower bound). */
    void seekToFirst();

    /** Positions at the last key (before the upper bound). */
    void seekToLast();

    /** Whether the cursor is at an entry (false before the first positioning and past either end). */
    boolean isValid();

    /** REQUIRES: {@link #isValid()}. Moves to the next key; invalid past the last. */
    void next();

    /** REQUIRES: {@link #isValid()}. Moves to the previous key; invalid before the first. */
    void prev();

    /** REQUIRES: {@link #isValid()}. The returned array belongs to the caller. */
    byte[] key();

    /** REQUIRES: {@link #isValid()}. The returned array belongs to the caller. */
    byte[] value();

    @Override
    void close();
}
