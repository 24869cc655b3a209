package io.bellows.bench;

import static io.bellows.bench.BenchFlags.DEFAULT_BENCHMARKS;
import static io.bellows.bench.BenchFlags.DEFAULT_NUM;
import static io.bellows.bench.BenchFlags.DEFAULT_SEED;

import io.bellows.engine.CompactionOptions;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Compression;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.TrieOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bellows-bench flags' values while parsing ({@link BenchFlags} sets them); {@link #build()} fills
 * derived defaults and checks combinations.
 */
final class FlagValues {
    List<Workload> benchmarks = Workload.parseList(DEFAULT_BENCHMARKS);
    long num = DEFAULT_NUM;
    long reads = -1;
    long deletes = -1;
    long operations = -1;
    KeyDistribution requestDistribution;
    int scanLength = 100;
    int readWritePercent = 90;
    EngineSpec engineSpec = EngineSpec.parse("bellows");
    String enginesText;
    String baselineText;
    Path json;
    Path out;
    Boolean progress;
    int sampleMillis = 10;
    KeyDistribution.Hotspot hotspot = KeyDistribution.Hotspot.YCSB;
    int keySize = 16;
    int valueSize = 100;
    int valueSizeMin = -1;
    int threads = 1;
    KeyDistribution distribution = KeyDistribution.UNIFORM;
    Durability durability = Durability.ASYNC;
    /** Uncompressed unless --compression says otherwise, as the RocksDB side's defaults here. */
    final EngineOptions.Builder engine = EngineOptions.builder().compression(Compression.NONE)
            .bottommostCompression(Compression.NONE);
    Path db;
    boolean useExistingDb;
    long seed = DEFAULT_SEED;
    int batchSize = 1;
    int seekNexts = 10;
    boolean histogram;
    Path csv;
    boolean help;
    long settleSeconds;
    /** The scheme options of --flsm_*, --trie_* and --ptier_*; the run's scheme takes its own. */
    final LeveledOptions.Builder leveled = LeveledOptions.builder();
    final FlsmOptions.Builder flsm = FlsmOptions.builder();
    final TrieOptions.Builder trie = TrieOptions.builder();
    final PtierOptions.Builder ptier = PtierOptions.builder();
    final TriadOptions.Builder triad = TriadOptions.builder();
    List<Path> traces = List.of();
    double replaySpeed;
    Path recordTrace;
    boolean recordTraceValues;
    int flsmTopLevelBits = FlsmOptions.defaults().topLevelBits();
    int flsmBitDecrement = FlsmOptions.defaults().bitDecrement();
    /** --scale_factor: every size knob divided by it (a power of two); see {@link #scale}. */
    int scaleFactor = 1;
    /** The scheme flags given, each with the scheme it belongs to, in order. */
    final Map<String, CompactionStyle> schemeFlags = new LinkedHashMap<>();

    BenchOptions build() {
        scale();
        flsm.guardBits(flsmTopLevelBits, flsmBitDecrement);
        // The scheme of --compaction, with the options of the scheme flags when they are its own.
        CompactionStyle compaction = built().compaction();
        engine.compaction(schemeOptions(compaction));
        built();
        if (num > KeyCodec.capacity(keySize)) {
            throw new FlagException("--key_size=" + keySize + " holds only " + KeyCodec.capacity(keySize)
                    + " distinct keys, fewer than --num=" + num);
        }
        if (useExistingDb) {
            if (db == null) {
                throw new FlagException("--use_existing_db needs --db=DIR");
            }
            for (Workload w : benchmarks) {
                if (w.freshDb()) {
                    throw new FlagException("--use_existing_db keeps the store in --db, but " + w.flagName()
                            + " starts from an empty one; leave it out of --benchmarks");
                }
            }
        }
        if (valueSizeMin > valueSize) {
            throw new FlagException("--value_size_min=" + valueSizeMin + " exceeds --value_size=" + valueSize);
        }
        if (valueSize > engine.build().maxValueLength()) {
            engine.maxValueLength(valueSize);
        }
        EngineSpec single = engineSpec.resolve(engine.build());
        List<EngineSpec> engines = enginesText == null ? List.of()
                : EngineSpec.parseList(enginesText, engine.build());
        for (CompactionStyle scheme : checkSchemeFlags(single, engines)) {
            engine.compaction(schemeOptions(scheme));
            built();
        }
        // --engine=bellows:SCHEME may name another scheme than --compaction; it runs with its own options.
        boolean bellows = single.kind() == EngineSpec.Kind.BELLOWS;
        engine.compaction(schemeOptions(bellows ? single.compaction() : compaction));
        EngineOptions engineOptions = built();
        EngineSpec baseline = null;
        if (baselineText != null) {
            if (engines.isEmpty()) {
                throw new FlagException("--baseline needs --engines");
            }
            baseline = EngineSpec.parse(baselineText).resolve(engineOptions);
            if (!engines.contains(baseline)) {
                throw new FlagException("--baseline=" + baseline.label() + " is not in --engines");
            }
        } else if (!engines.isEmpty()) {
            EngineSpec rocksdb = EngineSpec.parse("rocksdb");
            baseline = engines.contains(rocksdb) ? rocksdb : engines.get(0);
        }
        if (recordTrace != null) {
            if (!engines.isEmpty() || single.kind() != EngineSpec.Kind.BELLOWS) {
                throw new FlagException("--record_trace records a Bellows engine of a single run (not --engines, not"
                        + " rocksdb)");
            }
            engine.trace(recordTrace, TraceOptions.builder().values(recordTraceValues).build());
            engineOptions = built();
        } else if (recordTraceValues) {
            throw new FlagException("--record_trace_values needs --record_trace=FILE");
        }
        long replays = benchmarks.stream().filter(w -> w == Workload.REPLAY).count();
        if (replays != traces.size()) {
            throw new FlagException(traces.isEmpty() ? "--benchmarks=replay needs --trace=FILE"
                    : "--trace names " + traces.size() + " trace(s) but --benchmarks has " + replays
                    + " replay(s): the i-th replay plays the i-th trace");
        }
        for (Path trace : traces) {
            if (!Files.isReadable(trace)) {
                throw new FlagException("--trace: " + trace + " is not a readable file");
            }
        }
        long derived = Math.max(1, num / 5);
        return new BenchOptions(benchmarks, num, reads < 0 ? derived : reads, deletes < 0 ? derived : deletes,
                keySize, valueSize, threads, distribution, durability, engineOptions, db, useExistingDb, seed,
                batchSize, seekNexts, histogram, csv, help, settleSeconds, valueSizeMin < 0 ? valueSize : valueSizeMin,
                operations < 0 ? derived : operations, requestDistribution, scanLength,
                single, engines, baseline, json, out, progress, sampleMillis, hotspot, traces, replaySpeed,
                readWritePercent);
    }

    /** The options of {@code scheme}: those the scheme flags set for LEVELED, FLSM, LSM_TRIE, PTIER and TRIAD. */
    /**
     * A scale model (docs/benchmarks.md, "Scale models"): the sizes that set a store's shape, as given or by
     * default, divided by {@link #scaleFactor}, so a store of X bytes takes the shape of one of X times the
     * factor: the MemStore, table size, LEVELED/TRIAD's level base (so every level target), PTIER's split
     * threshold, FLSM's guard byte bounds and guard density (one bit fewer per halving: guards twice as
     * dense), LSM_TRIE's buckets per HTable. Counts (L0 triggers, pile limits, tables per guard), the block
     * cache and the off-heap limit are left as they are.
     */
    private void scale() {
        if (scaleFactor == 1) {
            return;
        }
        int shift = Integer.numberOfTrailingZeros(scaleFactor);
        try {
            EngineOptions e = engine.build();
            engine.memstoreSize(e.memstoreSize() >> shift).targetFileSize(e.targetFileSize() >> shift)
                    .maxBytesForLevelBase(e.maxBytesForLevelBase() >> shift);
            TrieOptions t = trie.build();
            trie.tableBuckets(Math.max(1, t.tableBuckets() >> shift));
            FlsmOptions f = flsm.build();
            flsm.guardMaxBytes(f.guardMaxBytes() >> shift).guardMinBytes(f.guardMinBytes() >> shift);
            flsmTopLevelBits -= shift;
            PtierOptions p = ptier.build();
            if (p.splitThreshold() != 0) {
                ptier.splitThreshold(p.splitThreshold() >> shift);
            }
        } catch (IllegalArgumentException ex) {
            throw new FlagException("--scale_factor=" + scaleFactor + " takes a size below its floor: " + ex.getMessage());
        }
        if (flsmTopLevelBits < 1) {
            throw new FlagException("--scale_factor=" + scaleFactor + " leaves FLSM " + flsmTopLevelBits
                    + " guard bits at the top level; give a larger --flsm_top_level_bits");
        }
    }

    CompactionOptions schemeOptions(CompactionStyle scheme) {
        return switch (scheme) {
            case LEVELED -> leveled.build();
            case FLSM -> flsm.build();
            case LSM_TRIE -> trie.build();
            case PTIER -> ptier.build();
            case TRIAD -> triad.build();
            default -> CompactionOptions.defaults(scheme);
        };
    }

    /** The engine options as set so far; options that do not fit together are a flag error. */
    EngineOptions built() {
        try {
            return engine.build();
        } catch (IllegalArgumentException e) {
            throw new FlagException(e.getMessage());
        }
    }

    /**
     * Rejects a scheme flag when no Bellows engine of the run uses its scheme (it used to be
     * silently ignored, measuring a configuration nobody asked for).
     *
     * @return the schemes the run's Bellows engines use
     */
    Set<CompactionStyle> checkSchemeFlags(EngineSpec single, List<EngineSpec> engines) {
        Set<CompactionStyle> used = EnumSet.noneOf(CompactionStyle.class);
        for (EngineSpec e : engines.isEmpty() ? List.of(single) : engines) {
            if (e.kind() == EngineSpec.Kind.BELLOWS) {
                used.add(e.compaction());
            }
        }
        for (Map.Entry<String, CompactionStyle> f : schemeFlags.entrySet()) {
            CompactionStyle scheme = f.getValue();
            if (used.contains(scheme)) {
                continue;
            }
            String runs = !engines.isEmpty() ? "no engine of --engines uses " + scheme
                    : single.kind() != EngineSpec.Kind.BELLOWS ? "this run's engine is " + single.label()
                    : "this run's scheme is " + single.compaction();
            throw new FlagException("--" + f.getKey() + " is an option of compaction scheme " + scheme + ", but "
                    + runs + " (select it with --compaction=" + scheme + " or --engine=bellows:" + scheme + ")");
        }
        return used;
    }
}
