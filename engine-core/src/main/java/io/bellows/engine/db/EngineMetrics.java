package io.bellows.engine.db;

import io.bellows.engine.metrics.EngineCounters;
import io.bellows.engine.version.Version;
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
        plain(registry, "bellows.flushes", c.flushes, "MemStore flushes");
        plain(registry, "bellows.compactions", c.compactions, "compactions");
        plain(registry, "bellows.background.errors", c.backgroundErrors, "failed flushes and compactions (retried)");
        gauge(registry, "bellows.memstore.data", e -> e.memstore().dataSize(), "bytes",
                "key and value bytes in the MemStore");
        gauge(registry, "bellows.memstore.heap", e -> e.memstore().heapSize(), "bytes",
                "estimated heap held by the MemStore");
        gauge(registry, "bellows.write.amplification", e -> amp(e.counters()), null,
                "(flush + compaction bytes written) / flush bytes written");
        gauge(registry, "bellows.space.amplification", EngineMetrics::spaceAmp, null,
                "live table bytes / bytes of the last non-empty level");
        gauge(registry, "bellows.tables.live.bytes", EngineMetrics::liveBytes, "bytes", "bytes of live tables");
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
