package io.bellows.engine;

import java.util.List;

/**
 * Told of an engine's background work as it happens, like RocksDB's {@code EventListener}: flushes and
 * compactions with the tables they read and wrote, write stalls, background errors. Give listeners with
 * {@link EngineOptions.Builder#listeners}. Every method has an empty default, so a listener overrides what
 * it needs.
 *
 * <p>Methods run on the engine's threads (background threads for flushes and compactions, the stalled
 * writer's thread for stalls, under the engine's lock): they must return quickly and must not call the
 * engine. An exception a listener throws is logged and does not affect the engine.
 */
public interface EventListener {
    /**
     * A table a flush or compaction wrote, or a compaction read.
     *
     * @param number the table's file number
     * @param level its level
     * @param bytes its file size
     * @param entries its entries
     */
    record TableInfo(long number, int level, long bytes, long entries) {}

    /**
     * A finished flush.
     *
     * @param outputs the tables it wrote (none when everything flushed was dropped or carried over)
     * @param durationNanos how long it took
     */
    record FlushInfo(List<TableInfo> outputs, long durationNanos) {
        /** Copies the outputs. */
        public FlushInfo {
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * A compaction about to run or finished.
     *
     * @param reason why it runs (the scheme's words: "size", "l0", "manual", ...)
     * @param outputLevel where its outputs go
     * @param inputs the tables it reads (moved tables included)
     * @param outputs the tables it wrote; empty when it begins
     * @param durationNanos how long it took; 0 when it begins
     */
    record CompactionInfo(String reason, int outputLevel, List<TableInfo> inputs, List<TableInfo> outputs,
            long durationNanos) {
        /** Copies the lists. */
        public CompactionInfo {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    /** A flush of the MemStore snapshot begins. */
    default void onFlushBegin() {}

    /** A flush finished and its tables are installed. */
    default void onFlushCompleted(FlushInfo info) {}

    /** A compaction begins. */
    default void onCompactionBegin(CompactionInfo info) {}

    /** A compaction finished and its result is installed. */
    default void onCompactionCompleted(CompactionInfo info) {}

    /** A writer began to wait for background work or memory (a write stall). */
    default void onStallBegin() {}

    /** The stalled writer goes on after {@code stalledNanos}. */
    default void onStallEnded(long stalledNanos) {}

    /** A flush or compaction ({@code job}) failed; it is retried, and no acknowledged data is lost. */
    default void onBackgroundError(String job, Throwable error) {}
}
