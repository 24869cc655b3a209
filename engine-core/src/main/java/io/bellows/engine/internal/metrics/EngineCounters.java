package io.bellows.engine.internal.metrics;

import io.bellows.engine.EngineStats;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's running counters, shared by every component that counts something. LongAdder keeps
 * hot-path increments contention-free across threads.
 */
public final class EngineCounters {
    /** What the open replayed from the WAL and dropped; set once, before the engine is published. */
    public volatile EngineStats.Recovery recovery = EngineStats.Recovery.NONE;
    public final LongAdder userBytes = new LongAdder();
    public final LongAdder walBytes = new LongAdder();
    public final LongAdder flushBytesWritten = new LongAdder();
    public final LongAdder compactionBytesRead = new LongAdder();
    public final LongAdder compactionBytesWritten = new LongAdder();
    public final LongAdder gets = new LongAdder();
    public final LongAdder tablesProbed = new LongAdder();
    /** Table blocks read from files (cache misses and uncached reads). */
    public final LongAdder blockReads = new LongAdder();
    public final LongAdder blockCacheHits = new LongAdder();
    /** Filter blocks read from files (LSM_TRIE BloomCluster pages not in the filter cache). */
    public final LongAdder filterBlockReads = new LongAdder();
    public final LongAdder bloomNegatives = new LongAdder();
    public final LongAdder stalls = new LongAdder();
    public final LongAdder stallNanos = new LongAdder();
    /** stallNanos by cause (EngineStats.StallCauses): delays, stops, flush waits, memory waits. */
    public final LongAdder stallDelayNanos = new LongAdder();
    public final LongAdder stallStopNanos = new LongAdder();
    public final LongAdder stallFlushNanos = new LongAdder();
    public final LongAdder stallMemoryNanos = new LongAdder();
    public final LongAdder flushes = new LongAdder();
    public final LongAdder compactions = new LongAdder();
    /** Compactions running now, automatic and manual (RocksDB's num-running-compactions). */
    public final AtomicInteger compactionsRunning = new AtomicInteger();
    public final LongAdder backgroundErrors = new LongAdder();
}
