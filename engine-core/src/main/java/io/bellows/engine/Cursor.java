package io.bellows.engine;

/**
 * Forward iteration over live keys in unsigned-lexicographic order, within the bounds and at the
 * snapshot of the {@link ReadOptions} it was created with (the latest state when it was created if
 * none). The idiom is {@code for (c.seek(k); c.isValid(); c.next())}. Not thread-safe; one left
 * unclosed is reported and released when it becomes unreachable.
 */
public interface Cursor extends AutoCloseable {
    /** Positions at the first key {@code >= key} (clamped to the lower bound). */
    void seek(byte[] key);

    void seekToFirst();

    boolean isValid();

    /** REQUIRES: {@link #isValid()}. */
    void next();

    /** REQUIRES: {@link #isValid()}. The returned array belongs to the caller. */
    byte[] key();

    /** REQUIRES: {@link #isValid()}. The returned array belongs to the caller. */
    byte[] value();

    @Override
    void close();
}
