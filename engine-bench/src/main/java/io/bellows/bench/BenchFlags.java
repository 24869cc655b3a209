package io.bellows.bench;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Compression;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TrieOptions;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import picocli.CommandLine;

/**
 * The bellows-bench command line: {@code --name=value} flags named as in db_bench, parsed and listed
 * by picocli from the table of flags below (name, value hint, default, help, setter). Switches
 * (--use_existing_db, --histogram, --help) also take a bare {@code --name}. A flag given twice,
 * an unknown flag or a bad value is a {@link FlagException}; so is a flag of one compaction scheme
 * (--flsm_*, --trie_*) when no engine of the run uses that scheme.
 */
final class BenchFlags {
    static final String DEFAULT_BENCHMARKS =
            "fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom,deleterandom";
    static final long DEFAULT_NUM = 1_000_000;
    /** db_bench's fixed seed, so two runs with the same flags do the same operations. */
    static final long DEFAULT_SEED = 301;
    static final long MAX_NUM = 1L << 40;

    private static final int HELP_COLUMN = 30;
    private static final int HELP_WIDTH = 120;
    private static final Map<String, Flag> FLAGS = flags();

    private BenchFlags() {}

    static BenchOptions parse(String... args) {
        for (String arg : args) {
            // NB: picocli would also take "--num 5" and "@file"; compare mode forwards flags one argument each.
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new FlagException("expected --name=value, got '" + arg + "'");
            }
        }
        List<Map.Entry<Flag, String>> given = new ArrayList<>();
        try {
            new CommandLine(command(given)).parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            String arg = e.getUnmatched().get(0);
            int eq = arg.indexOf('=');
            throw new FlagException("unknown flag " + (eq < 0 ? arg : arg.substring(0, eq)));
        } catch (CommandLine.OverwrittenOptionException e) {
            throw new FlagException("flag " + optionName(e.getOverwritten()) + " is given more than once");
        } catch (CommandLine.MissingParameterException e) {
            String name = optionName(e.getMissing().get(0));
            throw new FlagException("flag " + name + " needs a value: " + name + "=" + FLAGS.get(name.substring(2)).hint());
        } catch (CommandLine.ParameterException e) {
            throw new FlagException(e.getMessage());
        }
        FlagValues v = new FlagValues();
        for (Map.Entry<Flag, String> f : given) {
            Flag flag = f.getKey();
            flag.apply().accept(v, f.getValue());
            if (flag.scheme() != null) {
                v.schemeFlags.put(flag.name(), flag.scheme());
            }
        }
        return v.build();
    }

    /**
     * The command line as picocli sees it: every flag one {@code --name=value} option (a switch's value
     * optional), handing its text in the order given to {@code given}; the flags' own setters then
     * convert and check it with the messages --help's users know.
     */
    private static CommandLine.Model.CommandSpec command(List<Map.Entry<Flag, String>> given) {
        CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create().name("bellows-bench");
        spec.parser().expandAtFiles(false);
        // NB: the table's order groups the flags (workload, clients, engine, scheme, output); picocli would sort them.
        spec.usageMessage().width(HELP_WIDTH).longOptionsMaxWidth(HELP_COLUMN).sortOptions(false)
                .customSynopsis("java -jar bellows-bench.jar [--flag=value ...]")
                .header("bellows-bench: db_bench-style workloads for Bellows, run through its public API.", "")
                .optionListHeading("%nFlags:%n");
        for (Flag f : FLAGS.values()) {
            CommandLine.Model.OptionSpec.Builder option = CommandLine.Model.OptionSpec.builder("--" + f.name())
                    .type(String.class).description(f.help(), "default: " + f.defaultText())
                    .setter(new CommandLine.Model.ISetter() {
                        @Override
                        public <T> T set(T value) {
                            // NB: picocli sets every option to its (absent) initial value before parsing.
                            if (value != null) {
                                given.add(Map.entry(f, (String) value));
                            }
                            return null;
                        }
                    });
            if (f.isSwitch()) {
                option.arity("0..1").fallbackValue("true").paramLabel("true|false");
            } else {
                option.arity("1").paramLabel(f.hint());
            }
            spec.addOption(option.build());
        }
        return spec;
    }

    private static String optionName(CommandLine.Model.ArgSpec arg) {
        return ((CommandLine.Model.OptionSpec) arg).longestName();
    }

    /**
     * The compaction scheme whose options a flag sets (FLSM for --flsm_*, LSM_TRIE for --trie_*, TRIAD for
     * --triad_*), or null for a flag that is not specific to one scheme.
     */
    static CompactionStyle schemeOf(String flagName) {
        Flag flag = FLAGS.get(flagName);
        return flag == null ? null : flag.scheme();
    }

    /**
     * The arguments of {@code args} (all {@code --name[=value]}) that apply to {@code spec}: a scheme's
     * flags go only to a Bellows engine of that scheme. Compare mode forwards these to each child.
     */
    static List<String> forwardedTo(EngineSpec spec, List<String> args) {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            CompactionStyle scheme = schemeOf(arg.substring(2, eq < 0 ? arg.length() : eq));
            if (scheme == null || spec.kind() == EngineSpec.Kind.BELLOWS && spec.compaction() == scheme) {
                out.add(arg);
            }
        }
        return out;
    }

    static void printHelp(PrintStream out) {
        new CommandLine(command(new ArrayList<>())).usage(out, CommandLine.Help.Ansi.OFF);
        out.println();
        out.println("Workloads (--benchmarks, run in the order given; a name may repeat):");
        for (Workload w : Workload.values()) {
            out.printf(Locale.ROOT, "  %-17s %s%n", w.flagName(), w.description());
        }
        out.println();
        out.println("Notes:");
        out.println("  fillseq and fillrandom start from an empty store, as in db_bench. Unlike db_bench's");
        out.println("  fillrandom, which draws keys with replacement and leaves about 37% of them absent,");
        out.println("  Bellows' fillrandom writes every key once (db_bench's filluniquerandom), so later reads");
        out.println("  have a known hit rate. Work is split evenly over --threads.");
        out.println("  Keys are key_size bytes with the key number big-endian in the tail (numeric order).");
        out.println("  Values are random, incompressible bytes: Bellows does not compress, so db_bench's");
        out.println("  --compression_ratio has no counterpart.");
        out.println("  Latency is per engine call: per put or delete, per WriteBatch when --batch_size > 1,");
        out.println("  per get, per seek with its nexts, per cursor step in readseq.");
        out.println("  YCSB workloads (ycsba..ycsbf) run on the records a fill loaded: --num is YCSB's recordcount,");
        out.println("  --operations its operationcount; inserts add keys from num upwards.");
        out.println("  --engine=rocksdb runs the workloads on RocksDB with Bellows' settings (memtable, bloom bits,");
        out.println("  block cache, L0 triggers, WAL and sync, compression per level, direct I/O). --engines=A,B,... runs");
        out.println("  them once per configuration, each in its own JVM, and prints one table with ratios, e.g.");
        out.println("  --engines=bellows:LEVELED/NONE,rocksdb --out=results");
        out.println("  Sizes take a K, M, G or T suffix (powers of 1024).");
        out.println("  replay plays a trace (Engine.startTrace, --record_trace, YCSB's bellows.trace) with one thread per");
        out.println("  recorded thread, not --threads; e.g. --engines=... --benchmarks=replay --trace=app.trace compares");
        out.println("  every configuration on it (docs/benchmarks.md, \"Replaying your own workload\").");
        out.println("  A workload the store cannot run (readseq, seekrandom, ycsbe need cursors, which LSM_TRIE");
        out.println("  refuses) is reported as not supported, and the next workloads run.");
        out.println("  Exit codes: 0 done, 1 the engine failed (compare mode: a configuration's JVM failed; the");
        out.println("  others are reported first), 2 bad command line.");
    }

    private static Map<String, Flag> flags() {
        EngineOptions d = EngineOptions.defaults();
        TrieOptions trie = TrieOptions.defaults();
        Map<String, Flag> m = new LinkedHashMap<>();
        add(m, "benchmarks", "LIST", DEFAULT_BENCHMARKS, "comma-separated workloads, run in order",
                (v, s) -> v.benchmarks = Workload.parseList(s));
        add(m, "num", "N", Long.toString(DEFAULT_NUM),
                "entries written by each fill and by overwrite; random keys are drawn from [0, num)",
                (v, s) -> v.num = longIn("num", s, 1, MAX_NUM));
        add(m, "reads", "N", "num/5 (at least 1)", "operations of readrandom, readseq and seekrandom",
                (v, s) -> v.reads = longIn("reads", s, 1, MAX_NUM));
        add(m, "deletes", "N", "num/5 (at least 1)", "operations of deleterandom",
                (v, s) -> v.deletes = longIn("deletes", s, 1, MAX_NUM));
        add(m, "operations", "N", "num/5 (at least 1)",
                "operations of each YCSB workload (YCSB's operationcount; its recordcount is --num)",
                (v, s) -> v.operations = longIn("operations", s, 1, MAX_NUM));
        add(m, "key_size", "BYTES", "16", "key length; keys of fewer than 8 bytes limit num",
                (v, s) -> v.keySize = (int) longIn("key_size", s, 1, Engine.MAX_KEY_LENGTH));
        add(m, "value_size", "BYTES", "100", "value length",
                (v, s) -> v.valueSize = (int) bytesIn("value_size", s, 0, EngineOptions.MAX_VALUE_LENGTH_LIMIT));
        add(m, "value_size_min", "BYTES", "value_size",
                "shortest value; lengths are then uniform in [value_size_min, value_size]",
                (v, s) -> v.valueSizeMin = (int) bytesIn("value_size_min", s, 0, EngineOptions.MAX_VALUE_LENGTH_LIMIT));
        add(m, "threads", "N", "1", "client threads; each workload's operations are split over them",
                (v, s) -> v.threads = (int) longIn("threads", s, 1, 1024));
        add(m, "distribution", "uniform|zipfian|hotspot", "uniform",
                "key choice of overwrite, readrandom, seekrandom, deleterandom (zipfian: YCSB scrambled, theta 0.99;"
                        + " hotspot: see --hotspot)",
                (v, s) -> v.distribution = enumValue("distribution", s, KeyDistribution.class));
        add(m, "hotspot", "KEYS/OPS", "0.2/0.8", "hotspot: the share of the keys (the lowest-numbered) that are hot"
                + " and the share of the operations they get, e.g. 0.01/0.99",
                (v, s) -> engine("hotspot", () -> v.hotspot = KeyDistribution.Hotspot.parse(s)));
        add(m, "request_distribution", "uniform|zipfian|latest|hotspot", "each YCSB workload's own (D latest, else zipfian)",
                "key choice of the YCSB workloads",
                (v, s) -> v.requestDistribution = enumValue("request_distribution", s, KeyDistribution.class));
        add(m, "scan_length", "N", "100", "YCSB scans read a uniform 1..N entries (YCSB's maxscanlength)",
                (v, s) -> v.scanLength = (int) longIn("scan_length", s, 1, 1_000_000));
        add(m, "readwritepercent", "PERCENT", "90", "readrandomwriterandom: the share of its operations that are"
                + " gets (db_bench's flag); the rest are puts",
                (v, s) -> v.readWritePercent = (int) longIn("readwritepercent", s, 0, 100));
        add(m, "trace", "FILE[,FILE...]", "none", "the traces the replay workloads play, the i-th replay of"
                + " --benchmarks the i-th file (recorded by Engine.startTrace, EngineOptions.trace or the YCSB"
                + " binding's bellows.trace)",
                (v, s) -> v.traces = paths("trace", s));
        add(m, "replay_speed", "F", "0", "replay at F times the recorded speed (1.0: as recorded, with its"
                + " pauses); 0 replays as fast as possible",
                (v, s) -> v.replaySpeed = replaySpeed(s));
        add(m, "record_trace", "FILE", "none", "record this run's calls into its Bellows store to FILE"
                + " (EngineOptions.trace), for --benchmarks=replay elsewhere",
                (v, s) -> v.recordTrace = path("record_trace", s));
        add(m, "record_trace_values", null, "false", "--record_trace records value bytes, not only lengths",
                (v, s) -> v.recordTraceValues = bool("record_trace_values", s));
        add(m, "durability", names(Durability.values()), Durability.ASYNC.name(),
                "WriteOptions durability of every write",
                (v, s) -> v.durability = enumValue("durability", s, Durability.class));
        add(m, "engine", "SPEC", "bellows",
                "engine of this run: rocksdb, bellows (--compaction, --inmemory, --memory_layout) or"
                        + " bellows:SCHEME/POLICY[/LAYOUT]",
                (v, s) -> v.engineSpec = EngineSpec.parse(s));
        add(m, "engines", "LIST", "none",
                "compare mode: run the workloads once per engine, each in its own JVM, e.g."
                        + " bellows:LEVELED/NONE,bellows:LEVELED/BASIC/OFF_HEAP,rocksdb; prints one table with ratios",
                (v, s) -> v.enginesText = s);
        add(m, "baseline", "SPEC", "rocksdb if in --engines, else the first",
                "compare mode: the configuration the ratios divide by",
                (v, s) -> v.baselineText = s);
        add(m, "compaction", names(CompactionStyle.values()), d.compaction().name(), "disk compaction scheme",
                (v, s) -> v.engine.compaction(enumValue("compaction", s, CompactionStyle.class)));
        add(m, "inmemory", names(InMemoryCompaction.values()), d.inMemoryCompaction().name(), "MemStore policy",
                (v, s) -> v.engine.inMemoryCompaction(enumValue("inmemory", s, InMemoryCompaction.class)));
        add(m, "active_fraction", "F", Double.toString(d.activeSegmentFraction()),
                "A: active segment share of the MemStore (compacting policies)",
                (v, s) -> engine("active_fraction", () -> v.engine.activeSegmentFraction(doubleIn("active_fraction", s))));
        add(m, "pipeline_segments", "N", Integer.toString(d.pipelineSegments()),
                "S: pipeline segments before BASIC and ADAPTIVE merge",
                (v, s) -> engine("pipeline_segments",
                        () -> v.engine.pipelineSegments((int) longIn("pipeline_segments", s, 1, 64))));
        add(m, "adaptive_threshold", "F", Double.toString(d.adaptiveThreshold()),
                "R: redundancy above which ADAPTIVE may compact",
                (v, s) -> engine("adaptive_threshold", () -> v.engine.adaptiveThreshold(doubleIn("adaptive_threshold", s))));
        add(m, "mslab", "true|false", Boolean.toString(d.mslab()), "copy MemStore cells into pooled chunks",
                (v, s) -> v.engine.mslab(bool("mslab", s)));
        add(m, "memory_layout", names(MemoryLayout.values()), d.memoryLayout().name(),
                "MemStore memory layout; OFF_HEAP keeps cells and flattened indices in off-heap chunks",
                (v, s) -> v.engine.memoryLayout(enumValue("memory_layout", s, MemoryLayout.class)));
        add(m, "offheap_limit", "BYTES", "4 x memstore_size",
                "OFF_HEAP: most off-heap chunk bytes; writers wait for a flush beyond it (-XX:MaxDirectMemorySize must exceed it)",
                (v, s) -> engine("offheap_limit", () -> v.engine.offHeapLimit(bytesIn("offheap_limit", s))));
        add(m, "memstore_size", "BYTES", sizeText(d.memstoreSize()), "MemStore bytes that trigger a flush",
                (v, s) -> engine("memstore_size", () -> v.engine.memstoreSize(bytesIn("memstore_size", s))));
        add(m, "block_cache_size", "BYTES", sizeText(d.blockCacheSize()), "block cache capacity; 0 for none",
                (v, s) -> engine("block_cache_size", () -> v.engine.blockCacheSize(bytesIn("block_cache_size", s))));
        add(m, "bloom_bits", "N", Integer.toString(d.bloomBitsPerKey()), "bloom filter bits per key; 0 for none",
                (v, s) -> engine("bloom_bits", () -> v.engine.bloomBitsPerKey((int) longIn("bloom_bits", s, 0, 1024))));
        add(m, "compression", "none|lz4|zstd|levels", "none",
                "SSTable data block codec, both engines: one for every level, or levels = NONE on L0-L1, LZ4 below,"
                        + " ZSTD on the last level (Bellows' own default)",
                (v, s) -> compression(v.engine, s));
        add(m, "target_file_size", "BYTES", sizeText(d.targetFileSize()), "SSTable size compaction cuts output at",
                (v, s) -> engine("target_file_size", () -> v.engine.targetFileSize(bytesIn("target_file_size", s))));
        add(m, "max_bytes_for_level_base", "BYTES", sizeText(d.maxBytesForLevelBase()), "LEVELED: target size of L1",
                (v, s) -> engine("max_bytes_for_level_base",
                        () -> v.engine.maxBytesForLevelBase(bytesIn("max_bytes_for_level_base", s))));
        addScheme(m, CompactionStyle.LSM_TRIE, "trie_table_buckets", "N", Integer.toString(trie.tableBuckets()),
                "LSM_TRIE: 4 KiB buckets per HTable",
                (v, s) -> engine("trie_table_buckets",
                        () -> v.trie.tableBuckets((int) longIn("trie_table_buckets", s, 1, 1 << 20))));
        addScheme(m, CompactionStyle.LSM_TRIE, "trie_filter_cache", "BYTES", sizeText(trie.filterCacheSize()),
                "LSM_TRIE: memory for BloomCluster pages (not scaled by --scale_factor, as the block cache)",
                (v, s) -> engine("trie_filter_cache",
                        () -> v.trie.filterCacheSize(bytesIn("trie_filter_cache", s))));
        add(m, "direct_io", "true|false", Boolean.toString(d.directIo()),
                "direct I/O for table files where the file system supports it",
                (v, s) -> v.engine.directIo(bool("direct_io", s)));
        add(m, "background_threads", "N", Integer.toString(d.backgroundThreads()),
                "engine threads for flushes and compactions",
                (v, s) -> engine("background_threads",
                        () -> v.engine.backgroundThreads((int) longIn("background_threads", s, 1, 64))));
        add(m, "preload_tables", "N", Integer.toString(d.preloadTableThreads()),
                "threads that open every table at open (RocksDB's max_open_files=-1, its default); 0 = on first read",
                (v, s) -> engine("preload_tables", () -> v.engine.preloadTables((int) longIn("preload_tables", s, 0, 64))));
        add(m, "num_levels", "N", Integer.toString(d.numLevels()), "levels including L0",
                (v, s) -> engine("num_levels", () -> v.engine.numLevels((int) longIn("num_levels", s, 2, 20))));
        SchemeFlags.add(m);
        add(m, "db", "DIR", "a fresh temporary directory, deleted at the end",
                "store directory; must be absent or empty unless --use_existing_db",
                (v, s) -> v.db = path("db", s));
        add(m, "use_existing_db", null, "false", "run on the store already in --db (no fill workloads)",
                (v, s) -> v.useExistingDb = bool("use_existing_db", s));
        add(m, "scale_factor", "N", "1", "scale model: divide every size knob (MemStore, table size, level base,"
                + " FLSM guard bytes and density, PTIER split threshold, LSM_TRIE buckets) by N, a power of two",
                (v, s) -> v.scaleFactor = powerOfTwo("scale_factor", s));
        add(m, "seed", "N", Long.toString(DEFAULT_SEED), "seed of every random choice",
                (v, s) -> v.seed = longIn("seed", s, Long.MIN_VALUE, Long.MAX_VALUE));
        add(m, "batch_size", "N", "1", "writes per WriteBatch; 1 calls put/delete directly",
                (v, s) -> v.batchSize = (int) longIn("batch_size", s, 1, 1_000_000));
        add(m, "seek_nexts", "N", "10", "entries seekrandom reads after each seek",
                (v, s) -> v.seekNexts = (int) longIn("seek_nexts", s, 0, 1_000_000));
        add(m, "settle_seconds", "N", "0",
                "after each write workload, wait up to N s for compaction to go idle, then print the stats again",
                (v, s) -> v.settleSeconds = longIn("settle_seconds", s, 0, 86_400));
        add(m, "histogram", null, "false", "also print each workload's full latency distribution",
                (v, s) -> v.histogram = bool("histogram", s));
        add(m, "csv", "PATH", "none", "also write the results to this CSV file",
                (v, s) -> v.csv = path("csv", s));
        add(m, "json", "PATH", "none", "also write the results to this JSON file",
                (v, s) -> v.json = path("json", s));
        add(m, "out", "DIR", "none",
                "write results.csv, results.json, PNG charts (and in compare mode each engine's log) here",
                (v, s) -> v.out = path("out", s));
        add(m, "progress", "true|false", "true when run in a terminal",
                "progress bar on stderr for workloads longer than a few seconds",
                (v, s) -> v.progress = bool("progress", s));
        add(m, "sample_ms", "N", "10", "first interval of the throughput-over-time samples (charts, JSON); it"
                + " doubles as a workload runs on, keeping " + Sampler.MAX_SAMPLES / 2 + " to " + Sampler.MAX_SAMPLES
                + " samples",
                (v, s) -> v.sampleMillis = (int) longIn("sample_ms", s, 10, 3_600_000));
        add(m, "help", null, "false", "print this help and exit",
                (v, s) -> v.help = bool("help", s));
        return m;
    }

    private static void add(Map<String, Flag> m, String name, String hint, String defaultText, String help,
            BiConsumer<FlagValues, String> apply) {
        m.put(name, new Flag(name, hint, defaultText, help, apply, null));
    }

    /** A flag that sets an option of one compaction scheme; see {@link FlagValues#checkSchemeFlags}. */
    static void addScheme(Map<String, Flag> m, CompactionStyle scheme, String name, String hint,
            String defaultText, String help, BiConsumer<FlagValues, String> apply) {
        m.put(name, new Flag(name, hint, defaultText, help, apply, scheme));
    }

    private static List<Path> paths(String flag, String s) {
        List<Path> out = new ArrayList<>();
        for (String part : s.split(",", -1)) {
            out.add(path(flag, part.trim()));
        }
        return out;
    }

    private static double replaySpeed(String s) {
        double v;
        try {
            v = Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new FlagException("--replay_speed takes a number, got '" + s + "'");
        }
        if (!(v >= 0 && v <= 1e6)) {
            throw new FlagException("--replay_speed must be between 0 and 1000000, got " + s);
        }
        return v;
    }

    static long longIn(String flag, String s, long min, long max) {
        long v;
        try {
            v = Long.parseLong(s.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new FlagException("--" + flag + " takes an integer, got '" + s + "'");
        }
        return checkRange(flag, v, min, max);
    }

    /** A power of two from 1 to 1024. */
    static int powerOfTwo(String flag, String s) {
        int v = (int) longIn(flag, s, 1, 1024);
        if (Integer.bitCount(v) != 1) {
            throw new FlagException("--" + flag + " takes a power of two (1, 2, 4, ..., 1024), got " + v);
        }
        return v;
    }

    /** A byte count with an optional K, M, G or T suffix (powers of 1024). */
    static long bytesIn(String flag, String s, long min, long max) {
        return checkRange(flag, bytesIn(flag, s), min, max);
    }

    static long bytesIn(String flag, String s) {
        String t = s.trim().replace("_", "").toUpperCase(Locale.ROOT);
        int shift = 0;
        if (!t.isEmpty()) {
            int unit = "KMGT".indexOf(t.charAt(t.length() - 1));
            if (unit >= 0) {
                shift = 10 * (unit + 1);
                t = t.substring(0, t.length() - 1);
            }
        }
        try {
            long v = Long.parseLong(t);
            if (v < 0 || v > Long.MAX_VALUE >> shift) {
                throw new FlagException("--" + flag + " is out of range: '" + s + "'");
            }
            return v << shift;
        } catch (NumberFormatException e) {
            throw new FlagException("--" + flag + " takes a size in bytes such as 4096 or 64M, got '" + s + "'");
        }
    }

    private static long checkRange(String flag, long v, long min, long max) {
        if (v < min || v > max) {
            throw new FlagException("--" + flag + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    private static void compression(EngineOptions.Builder b, String s) {
        switch (s) {
            case "none" -> b.compression(Compression.NONE).bottommostCompression(Compression.NONE);
            case "lz4" -> b.compression(Compression.LZ4).bottommostCompression(Compression.LZ4);
            case "zstd" -> b.compression(Compression.ZSTD).bottommostCompression(Compression.ZSTD);
            case "levels" -> b.compression(Compression.NONE, Compression.NONE, Compression.LZ4)
                    .bottommostCompression(Compression.ZSTD);
            default -> throw new FlagException("--compression must be none, lz4, zstd or levels, got " + s);
        }
    }

    static <E extends Enum<E>> E enumValue(String flag, String s, Class<E> type) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(s.trim())) {
                return e;
            }
        }
        throw new FlagException("--" + flag + " must be one of " + names(type.getEnumConstants()) + ", got '" + s + "'");
    }

    static boolean bool(String flag, String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "true":
            case "1":
                return true;
            case "false":
            case "0":
                return false;
            default:
                throw new FlagException("--" + flag + " takes true or false, got '" + s + "'");
        }
    }

    private static Path path(String flag, String s) {
        if (s.isBlank()) {
            throw new FlagException("--" + flag + " needs a path");
        }
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            throw new FlagException("--" + flag + " is not a valid path: " + e.getMessage());
        }
    }

    /** Applies an engine option, turning the builder's range check into a flag error. */
    static double doubleIn(String flag, String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new FlagException("--" + flag + " takes a number such as 0.02, got '" + s + "'");
        }
    }

    static void engine(String flag, Runnable set) {
        try {
            set.run();
        } catch (IllegalArgumentException e) {
            throw new FlagException("--" + flag + ": " + e.getMessage());
        }
    }

    private static String names(Enum<?>[] values) {
        StringBuilder sb = new StringBuilder();
        for (Enum<?> e : values) {
            sb.append(sb.length() == 0 ? "" : "|").append(e.name());
        }
        return sb.toString();
    }

    static String sizeText(long bytes) {
        String[] units = {"T", "G", "M", "K"};
        for (int i = 0; i < units.length; i++) {
            int shift = 10 * (units.length - i);
            if (bytes != 0 && bytes % (1L << shift) == 0) {
                return (bytes >> shift) + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /**
     * One flag: its name, value hint (null for a switch), default as shown by --help, setter, and the
     * compaction scheme whose options it sets (null for every other flag).
     */
    record Flag(String name, String hint, String defaultText, String help, BiConsumer<FlagValues, String> apply,
            CompactionStyle scheme) {
        boolean isSwitch() {
            return hint == null;
        }
    }

    /** The flag names --help lists, in order; for tests. */
    static List<String> flagNames() {
        return List.copyOf(FLAGS.keySet());
    }
}
