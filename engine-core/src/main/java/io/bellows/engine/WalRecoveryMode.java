package io.bellows.engine;

/**
 * What opening a store does with a damaged WAL, with RocksDB's meanings ({@code WALRecoveryMode}).
 *
 * <p>A <em>torn tail</em> is the incomplete last record a crash leaves (its length runs past the end of
 * the file, or the rest of the file was never written). Anything else that fails verification is
 * <em>corruption</em>: a record whose bytes are all there but whose checksum fails, a malformed record,
 * damage followed by valid records. The manifest is never subject to these modes: any corruption of it
 * fails the open.
 *
 * <p>Whatever recovery drops is counted in {@link EngineStats.Recovery} and logged: corruption at ERROR,
 * naming the file, the offset and how much was dropped; a torn tail at WARN.
 */
public enum WalRecoveryMode {
    /**
     * Any damage, a torn tail included, fails the open with a {@link CorruptionException} naming the file
     * and offset, before anything is written. For stores that must never lose an acknowledged write
     * silently; after a machine crash a torn tail refuses the open too (RocksDB's kAbsoluteConsistency).
     */
    ABSOLUTE_CONSISTENCY,
    /**
     * The default. Replays every record before the first damage and stops there: the store opens at the
     * last consistent point before it, and the records after it (in that file and in every later WAL) are
     * dropped, so a write is never applied without the writes acknowledged before it (RocksDB's
     * kPointInTimeRecovery, also its default).
     */
    POINT_IN_TIME,
    /**
     * Drops only the damaged records and replays every valid record after them, in this file and in
     * later ones. The store may then hold a write without some acknowledged before it: for salvaging data,
     * not for routine opens (RocksDB's kSkipAnyCorruptedRecords).
     */
    SKIP_ANY_CORRUPTED_RECORDS
}
