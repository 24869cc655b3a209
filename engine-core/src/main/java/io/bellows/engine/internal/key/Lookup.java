package io.bellows.engine.internal.key;

/**
 * The outcome of a point lookup in one source (MemStore segment, table): the newest entry of a key
 * visible at a sequence. Mutable and reused across sources within one get, so a get allocates one
 * holder, not one per source probed.
 */
public final class Lookup {
    /** Sequence of the entry found. */
    public long sequence;
    /** {@link InternalKeys#KIND_PUT} or {@link InternalKeys#KIND_DELETE}. */
    public int kind;
    /** The value of a PUT; null for a DELETE. Never modified after being set. */
    public byte[] value;
    /**
     * Set by a table probe whose reads make a compaction due (read-triggered compaction), so the read
     * path schedules one; not part of the outcome.
     */
    public boolean compactionDue;

    public void set(long sequence, int kind, byte[] value) {
        this.sequence = sequence;
        this.kind = kind;
        this.value = value;
    }
}
