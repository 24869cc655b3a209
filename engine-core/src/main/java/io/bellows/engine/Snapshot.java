package io.bellows.engine;

/**
 * A consistent point-in-time view of the store: reads at a snapshot see exactly the writes
 * acknowledged before it was taken. While open it keeps the versions it can see from being
 * compacted away, so close it promptly; one left unclosed is reported and released when it becomes
 * unreachable.
 */
public interface Snapshot extends AutoCloseable {
    /** The sequence number of the last write the snapshot sees. */
    long sequence();

    /** Releases the snapshot. Idempotent. */
    @Override
    void close();
}
