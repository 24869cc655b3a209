package io.bellows.engine.internal.db;

import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreStats;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

/**
 * Exports an engine's counters and gauges to micrometer, tagged {@code engine=<name>}. Holds the
 * engine strongly, because micrometer gauges only keep weak references to what they observe.
 */
final class EngineMetrics implements MeterBinder {
    private final EngineImpl engine;
    private final Tags tags;

    EngineMetrics(EngineImpl engine, String name) {
        this.engine = engine;
        this.tags = Tags.of("engine", name);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        EngineCounters c = engine.counters();
        counter(registry, "bellows.bytes.written", "user", c.userBytes, "key and value bytes of acknowledged writes");
        counter(registry, "bellows.bytes.written", "wal", c.walBytes, "bytes appended to the WAL");
        counter(registry, "bellows.bytes.written", "flush", c.flushBytesWritten, "table bytes written by flushes");
        counter(registry, "bellows.bytes.written", "compaction", c.compactionBytesWritten,
                "table bytes written by compactions");
        counter(registry, "bellows.bytes.read", "compaction", c.compactionBytesRead, "table bytes read by compactions");
        plain(registry, "bellows.gets", c.gets, "point lookups");
        plain(registry, "bellows.tables.probed", c.tablesProbed, "tables consulted by point lookups");
        plain(registry, "bellows.block.reads", c.blockReads, "table blocks read from files");
        plain(registry, "bellows.filter.block.reads", c.filterBlockReads, "filter blocks read from files (LSM_TRIE)");
        plain(registry, "bellows.block.cache.hits", c.blockCacheHits, "table blocks served by the block cache");
        plain(registry, "bellows.bloom.negatives", c.bloomNegatives, "table probes skipped by a bloom filter");
        plain(registry, "bellows.stalls", c.stalls, "write groups delayed or stopped by backpressure");
        FunctionCounter.builder("bellows.stall.time", c.stallNanos, a -> a.sum() / 1e9).tags(tags).baseUnit("seconds")
                .description("time writers spent stalled").register(registry);
        stallCause(registry, tags, "delay", c.stallDelayNanos);
        stallCause(registry, tags, "stop", c.stallStopNanos);
        stallCause(registry, tags, "flush", c.stallFlushNanos);
        stallCause(registry, tags, "memory", c.stallMemoryNanos);
        plain(registry, "bellows.flushes", c.flushes, "MemStore flushes");
        plain(registry, "bellows.compactions", c.compactions, "compactions");
        plain(registry, "bellows.background.errors", c.backgroundErrors, "failed flushes and compactions (retried)");
        gauge(registry, "bellows.memstore.data", e -> e.memstore().dataSize(), "bytes",
                "key and value bytes in the MemStore");
        gauge(registry, "bellows.memstore.heap", e -> e.memstore().heapSize(), "bytes",
                "estimated heap held by the MemStore");
        MemStoreCounters m = engine.memstoreCounters();
        plain(registry, "bellows.memstore.inmemory.flushes", m.inMemoryFlushes,
                "active segments pushed into the pipeline");
        plain(registry, "bellows.memstore.inmemory.flattens", m.flattens, "skiplist indices flattened");
        plain(registry, "bellows.memstore.inmemory.merges", m.merges, "pipeline indices merged");
        plain(registry, "bellows.memstore.inmemory.compactions", m.compactions,
                "pipelines compacted in memory (redundant versions dropped)");
        plain(registry, "bellows.memstore.inmemory.aborted", m.aborted,
                "in-memory compactions given up because a disk flush took the pipeline");
        FunctionCounter.builder("bellows.memstore.eliminated", m.bytesEliminated, LongAdder::sum).tags(tags)
                .baseUnit("bytes").description("bytes of versions dropped in memory, never written to disk")
                .register(registry);
        gauge(registry, "bellows.memstore.segments", e -> e.memstore().stats().pipelineSegments, null,
                "immutable segments in the pipeline");
        gauge(registry, "bellows.memstore.adaptive.uniqueness", e -> e.memstore().stats().uniqueness, null,
                "ADAPTIVE's estimate of the unique-key fraction");
        gauge(registry, "bellows.memstore.adaptive.throttle", e -> e.memstore().stats().throttle, null,
                "ADAPTIVE's compaction probability");
        for (String kind : new String[] {"skiplist", "flat", "serialized"}) {
            Gauge.builder("bellows.memstore.segment.data", engine, e -> bucket(e.memstore().stats(), kind)[0])
                    .tags(tags.and("kind", kind)).baseUnit("bytes").description("key and value bytes by segment kind")
                    .strongReference(true).register(registry);
            Gauge.builder("bellows.memstore.segment.heap", engine, e -> bucket(e.memstore().stats(), kind)[1])
                    .tags(tags.and("kind", kind)).baseUnit("bytes").description("estimated heap by segment kind")
                    .strongReference(true).register(registry);
        }
        gauge(registry, "bellows.memstore.offheap", e -> e.memstore().stats().offHeapBytes, "bytes",
                "off-heap bytes held by MemStore segments (data, record headers, serialized indices)");
        gauge(registry, "bellows.memstore.chunks.used", e -> e.memstore().stats().pool.chunksInUse(), null,
                "MSLAB chunks held by MemStore segments");
        gauge(registry, "bellows.memstore.chunks.free", e -> e.memstore().stats().pool.chunksFree(), null,
                "MSLAB chunks kept in the pool for reuse");
        gauge(registry, "bellows.memstore.chunks.offheap", e -> e.memstore().stats().pool.offHeapBytes(), "bytes",
                "off-heap bytes allocated by the chunk pool, chunks in use and free");
        gauge(registry, "bellows.write.amplification", e -> amp(e.counters()), null,
                "(flush + compaction bytes written) / flush bytes written");
        gauge(registry, "bellows.space.amplification", EngineMetrics::spaceAmp, null,
                "live table bytes / bytes of the last non-empty level (RocksDB's estimate)");
        gauge(registry, "bellows.tables.live.bytes", EngineMetrics::liveBytes, "bytes", "bytes of live tables");
        for (int level = 0; level < engine.versions().numLevels(); level++) {
            int l = level;
            Gauge.builder("bellows.level.tables", engine, e -> e.versions().current().files(l).size())
                    .tags(tags.and("level", Integer.toString(l))).description("live tables in the level")
                    .strongReference(true).register(registry);
            Gauge.builder("bellows.level.bytes", engine, e -> levelBytes(e, l)).tags(tags.and("level", Integer.toString(l)))
                    .baseUnit("bytes").description("bytes of the level's live tables").strongReference(true).register(registry);
        }
        gauge(registry, "bellows.compaction.pending.bytes", e -> e.scheme().pendingCompactionBytes(e.versions().current()),
                "bytes", "the scheme's estimate of the bytes compaction must still write (LEVELED, TRIAD)");
        engine.addTimers(new OpTimers(registry, tags));
        for (String figure : engine.scheme().figures().keySet()) {
            Gauge.builder("bellows.scheme", engine, e -> e.scheme().figures().getOrDefault(figure, Double.NaN))
                    .tags(tags.and("figure", figure)).description("the compaction scheme's own figures (docs/tuning.md)")
                    .strongReference(true).register(registry);
        }
    }

    private static void stallCause(MeterRegistry registry, Tags tags, String cause, LongAdder nanos) {
        FunctionCounter.builder("bellows.stall.cause.time", nanos, a -> a.sum() / 1e9).tags(tags.and("cause", cause))
                .baseUnit("seconds").description("time writers spent stalled, by cause: delay, stop, flush, memory")
                .register(registry);
    }

    private static double levelBytes(EngineImpl e, int level) {
        long sum = 0;
        for (FileMeta f : e.versions().current().files(level)) {
            sum += f.fileSize;
        }
        return sum;
    }

    /** Data and heap bytes of one segment kind. */
    private static long[] bucket(MemStoreStats s, String kind) {
        switch (kind) {
            case "skiplist":
                return new long[] {s.skiplistDataBytes, s.skiplistHeapBytes};
            case "flat":
                return new long[] {s.flatDataBytes, s.flatHeapBytes};
            default:
                return new long[] {s.serializedDataBytes, s.serializedHeapBytes};
        }
    }

    private void counter(MeterRegistry r, String name, String cause, LongAdder a, String description) {
        FunctionCounter.builder(name, a, LongAdder::sum).tags(tags.and("cause", cause)).baseUnit("bytes")
                .description(description).register(r);
    }

    private void plain(MeterRegistry r, String name, LongAdder a, String description) {
        FunctionCounter.builder(name, a, LongAdder::sum).tags(tags).description(description).register(r);
    }

    private void gauge(MeterRegistry r, String name, ToDoubleFunction<EngineImpl> f, String unit, String description) {
        Gauge.Builder<EngineImpl> b = Gauge.builder(name, engine, f).tags(tags).description(description).strongReference(true);
        if (unit != null) {
            b.baseUnit(unit);
        }
        b.register(r);
    }

    private static double amp(EngineCounters c) {
        long flush = c.flushBytesWritten.sum();
        return flush == 0 ? 0 : (double) (flush + c.compactionBytesWritten.sum()) / flush;
    }

    private static double liveBytes(EngineImpl e) {
        Version v = e.versions().acquireCurrent();
        try {
            long sum = 0;
            for (int i = 0; i < v.numLevels(); i++) {
                sum += v.levelBytes(i);
            }
            return sum;
        } finally {
            v.release();
        }
    }

    private static double spaceAmp(EngineImpl e) {
        Version v = e.versions().acquireCurrent();
        try {
            long total = 0;
            long last = 0;
            for (int i = 0; i < v.numLevels(); i++) {
                long b = v.levelBytes(i);
                total += b;
                if (b > 0) {
                    last = b;
                }
            }
            return last == 0 ? 0 : (double) total / last;
        } finally {
            v.release();
        }
    }
}
