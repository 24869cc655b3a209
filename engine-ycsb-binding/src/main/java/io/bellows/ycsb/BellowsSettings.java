package io.bellows.ycsb;

import io.bellows.engine.CompactionOptions;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Compression;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.TrieOptions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import site.ycsb.DBException;

/**
 * The binding's YCSB properties ({@code bellows.*}) turned into engine options. Every {@code bellows.*} key
 * must be known and well formed: a typo that silently fell back to a default would make a benchmark measure
 * a configuration nobody asked for. For the same reason a key of one compaction scheme ({@code bellows.flsm_*},
 * {@code bellows.trie_*}) is refused unless {@code bellows.compaction} selects that scheme. Enums are parsed by
 * constant name, so a scheme or MemStore policy added to the engine is accepted here without a change.
 */
final class BellowsSettings {
    static final String PREFIX = "bellows.";
    static final String DIR = "bellows.dir";
    static final String COMPACTION = "bellows.compaction";
    static final String DURABILITY = "bellows.durability";
    static final String L0_COMPACTION = "bellows.l0_compaction_trigger";
    static final String L0_SLOWDOWN = "bellows.l0_slowdown_trigger";
    static final String L0_STOP = "bellows.l0_stop_trigger";
    static final String FLSM_TOP_BITS = "bellows.flsm_top_level_bits";
    static final String FLSM_BIT_DECREMENT = "bellows.flsm_bit_decrement";
    static final String TRIE_PILE_TRIGGER = "bellows.trie_pile_trigger";
    static final String TRIE_PILE_SLOWDOWN = "bellows.trie_pile_slowdown";
    static final String TRIE_PILE_STOP = "bellows.trie_pile_stop";
    /** Records a trace of the run's calls to this file (Engine.startTrace), for bellows-bench's replay. */
    static final String TRACE = "bellows.trace";
    static final String TRACE_VALUES = "bellows.trace_values";
    /** Keys set together through one builder call; each group is applied after the single keys. */
    private static final List<String> GROUPED = List.of(L0_COMPACTION, L0_SLOWDOWN, L0_STOP, FLSM_TOP_BITS,
            FLSM_BIT_DECREMENT, TRIE_PILE_TRIGGER, TRIE_PILE_SLOWDOWN, TRIE_PILE_STOP, TRACE, TRACE_VALUES);

    private static final Pattern BYTES = Pattern.compile("(\\d{1,19})([kmgt]?)", Pattern.CASE_INSENSITIVE);

    /** Key prefixes of the options of one compaction scheme, with that scheme. */
    private static final Map<String, CompactionStyle> SCHEME_PREFIXES =
            Map.of("bellows.flsm_", CompactionStyle.FLSM, "bellows.trie_", CompactionStyle.LSM_TRIE, "bellows.ptier_",
                    CompactionStyle.PTIER, "bellows.triad_", CompactionStyle.TRIAD);

    /** The keys other than {@link #DIR}, {@link #DURABILITY} and the grouped ones, each with its builder call. */
    private static final Map<String, Option> OPTIONS = new TreeMap<>();
    /** The FLSM keys other than the grouped guard bits, each with its {@link FlsmOptions.Builder} call. */
    private static final Map<String, SchemeOption<FlsmOptions.Builder>> FLSM_OPTIONS = new TreeMap<>();
    /** The LSM_TRIE keys other than the grouped pile limits, each with its {@link TrieOptions.Builder} call. */
    private static final Map<String, SchemeOption<TrieOptions.Builder>> TRIE_OPTIONS = new TreeMap<>();
    /** The PTIER keys, each with its {@link PtierOptions.Builder} call. */
    private static final Map<String, SchemeOption<PtierOptions.Builder>> PTIER_OPTIONS = new TreeMap<>();
    /** The TRIAD keys, each with its {@link TriadOptions.Builder} call. */
    private static final Map<String, SchemeOption<TriadOptions.Builder>> TRIAD_OPTIONS = new TreeMap<>();

    static {
        OPTIONS.put(COMPACTION, (b, k, v) -> b.compaction(parseEnum(k, v, CompactionStyle.class)));
        OPTIONS.put("bellows.inmemory", (b, k, v) -> b.inMemoryCompaction(parseEnum(k, v, InMemoryCompaction.class)));
        OPTIONS.put("bellows.memstore_size", (b, k, v) -> b.memstoreSize(parseBytes(k, v)));
        OPTIONS.put("bellows.max_value_length", (b, k, v) -> b.maxValueLength(parseIntBytes(k, v)));
        OPTIONS.put("bellows.block_size", (b, k, v) -> b.blockSize(parseIntBytes(k, v)));
        OPTIONS.put("bellows.block_restart_interval", (b, k, v) -> b.blockRestartInterval(parseInt(k, v)));
        OPTIONS.put("bellows.bloom_bits", (b, k, v) -> b.bloomBitsPerKey(parseInt(k, v)));
        OPTIONS.put("bellows.block_cache_size", (b, k, v) -> b.blockCacheSize(parseBytes(k, v)));
        OPTIONS.put("bellows.target_file_size", (b, k, v) -> b.targetFileSize(parseBytes(k, v)));
        OPTIONS.put("bellows.max_bytes_for_level_base", (b, k, v) -> b.maxBytesForLevelBase(parseBytes(k, v)));
        OPTIONS.put("bellows.level_size_multiplier", (b, k, v) -> b.levelSizeMultiplier(parseInt(k, v)));
        OPTIONS.put("bellows.num_levels", (b, k, v) -> b.numLevels(parseInt(k, v)));
        OPTIONS.put("bellows.wal_sync_interval_ms", (b, k, v) -> b.walSyncInterval(Duration.ofMillis(parseInt(k, v))));
        OPTIONS.put("bellows.direct_io", (b, k, v) -> b.directIo(parseBoolean(k, v)));
        OPTIONS.put("bellows.background_threads", (b, k, v) -> b.backgroundThreads(parseInt(k, v)));
        OPTIONS.put("bellows.preload_tables", (b, k, v) -> b.preloadTables(parseInt(k, v)));
        OPTIONS.put("bellows.create_if_missing", (b, k, v) -> b.createIfMissing(parseBoolean(k, v)));
        OPTIONS.put("bellows.error_if_exists", (b, k, v) -> b.errorIfExists(parseBoolean(k, v)));
        OPTIONS.put("bellows.active_segment_fraction", (b, k, v) -> b.activeSegmentFraction(parseDouble(k, v)));
        OPTIONS.put("bellows.pipeline_segments", (b, k, v) -> b.pipelineSegments(parseInt(k, v)));
        OPTIONS.put("bellows.adaptive_threshold", (b, k, v) -> b.adaptiveThreshold(parseDouble(k, v)));
        OPTIONS.put("bellows.mslab", (b, k, v) -> b.mslab(parseBoolean(k, v)));
        OPTIONS.put("bellows.mslab_chunk_size", (b, k, v) -> b.mslabChunkSize(parseIntBytes(k, v)));
        OPTIONS.put("bellows.compression", (b, k, v) -> {
            String[] names = v.split(",");
            Compression[] perLevel = new Compression[names.length];
            for (int i = 0; i < names.length; i++) {
                perLevel[i] = parseEnum(k, names[i].trim(), Compression.class);
            }
            b.compression(perLevel);
        });
        OPTIONS.put("bellows.bottommost_compression", (b, k, v) -> b.bottommostCompression(parseEnum(k, v, Compression.class)));
        OPTIONS.put("bellows.memory_layout", (b, k, v) -> b.memoryLayout(parseEnum(k, v, MemoryLayout.class)));
        OPTIONS.put("bellows.offheap_limit", (b, k, v) -> b.offHeapLimit(parseBytes(k, v)));
        FLSM_OPTIONS.put("bellows.flsm_max_tables_per_guard", (b, k, v) -> b.maxTablesPerGuard(parseInt(k, v)));
        FLSM_OPTIONS.put("bellows.flsm_guard_max_bytes", (b, k, v) -> b.guardMaxBytes(parseBytes(k, v)));
        FLSM_OPTIONS.put("bellows.flsm_guard_min_bytes", (b, k, v) -> b.guardMinBytes(parseBytes(k, v)));
        FLSM_OPTIONS.put("bellows.flsm_seek_compaction_threshold",
                (b, k, v) -> b.seekCompactionThreshold(parseInt(k, v)));
        FLSM_OPTIONS.put("bellows.flsm_parallel_seeks", (b, k, v) -> b.parallelSeeks(parseBoolean(k, v)));
        TRIE_OPTIONS.put("bellows.trie_depth", (b, k, v) -> b.depth(parseInt(k, v)));
        TRIE_OPTIONS.put("bellows.trie_table_buckets", (b, k, v) -> b.tableBuckets(parseInt(k, v)));
        TRIE_OPTIONS.put("bellows.trie_bloom_bits", (b, k, v) -> b.bloomBitsPerKey(parseInt(k, v)));
        TRIE_OPTIONS.put("bellows.trie_filter_cache_size", (b, k, v) -> b.filterCacheSize(parseBytes(k, v)));
        TRIE_OPTIONS.put("bellows.trie_gc_garbage_ratio", (b, k, v) -> b.gcGarbageRatio(parseDouble(k, v)));
        TRIE_OPTIONS.put("bellows.trie_hash_seed", (b, k, v) -> b.hashSeed(parseLong(k, v)));
        PTIER_OPTIONS.put("bellows.ptier_prefix_length", (b, k, v) -> b.prefixLength(parseInt(k, v)));
        PTIER_OPTIONS.put("bellows.ptier_split_threshold", (b, k, v) -> b.splitThreshold(parseBytes(k, v)));
        PTIER_OPTIONS.put("bellows.ptier_intra_merge_reads", (b, k, v) -> b.intraLevelMergeReads(parseInt(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_mem", (b, k, v) -> b.mem(parseBoolean(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_hot_fraction", (b, k, v) -> b.hotFraction(parseDouble(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_flush_threshold", (b, k, v) -> b.flushThreshold(parseInt(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_disk", (b, k, v) -> b.disk(parseBoolean(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_overlap_ratio_threshold",
                (b, k, v) -> b.overlapRatioThreshold(parseDouble(k, v)));
        TRIAD_OPTIONS.put("bellows.triad_l0_max_tables", (b, k, v) -> b.l0MaxTables(parseInt(k, v)));
    }

    private final Path dir;
    private final EngineOptions options;
    private final Durability durability;
    /** The {@code bellows.*} properties other than the directory, as given. */
    private final Map<String, String> tuning;

    private BellowsSettings(Path dir, EngineOptions options, Durability durability, Map<String, String> tuning) {
        this.dir = dir;
        this.options = options;
        this.durability = durability;
        this.tuning = tuning;
    }

    /** Every {@code bellows.*} key this binding accepts, sorted. */
    static String[] knownKeys() {
        TreeSet<String> keys = new TreeSet<>(OPTIONS.keySet());
        keys.addAll(FLSM_OPTIONS.keySet());
        keys.addAll(TRIE_OPTIONS.keySet());
        keys.addAll(PTIER_OPTIONS.keySet());
        keys.addAll(TRIAD_OPTIONS.keySet());
        keys.add(DIR);
        keys.add(DURABILITY);
        keys.addAll(GROUPED);
        return keys.toArray(new String[0]);
    }

    static BellowsSettings parse(Properties properties) throws DBException {
        Map<String, String> given = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(PREFIX)) {
                given.put(name, properties.getProperty(name).trim());
            }
        }
        String dirValue = given.get(DIR);
        if (dirValue == null || dirValue.isEmpty()) {
            throw new DBException(DIR + " is required: the directory of the store, e.g. -p " + DIR + "=/tmp/bellows-ycsb");
        }
        Path dir;
        try {
            dir = Path.of(dirValue).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new DBException(DIR + "=" + dirValue + " is not a valid path: " + e.getMessage(), e);
        }
        EngineOptions defaults = EngineOptions.defaults();
        EngineOptions.Builder builder = EngineOptions.builder();
        FlsmOptions.Builder flsm = FlsmOptions.builder();
        TrieOptions.Builder trie = TrieOptions.builder();
        PtierOptions.Builder ptier = PtierOptions.builder();
        TriadOptions.Builder triad = TriadOptions.builder();
        CompactionStyle style = given.containsKey(COMPACTION)
                ? parseEnum(COMPACTION, given.get(COMPACTION), CompactionStyle.class) : defaults.compaction();
        Durability durability = Durability.ASYNC;
        for (Map.Entry<String, String> e : given.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.equals(DURABILITY)) {
                durability = parseEnum(key, value, Durability.class);
                continue;
            }
            Option option = OPTIONS.get(key);
            SchemeOption<FlsmOptions.Builder> flsmOption = FLSM_OPTIONS.get(key);
            SchemeOption<TrieOptions.Builder> trieOption = TRIE_OPTIONS.get(key);
            SchemeOption<PtierOptions.Builder> ptierOption = PTIER_OPTIONS.get(key);
            SchemeOption<TriadOptions.Builder> triadOption = TRIAD_OPTIONS.get(key);
            boolean known = option != null || flsmOption != null || trieOption != null || ptierOption != null
                    || triadOption != null;
            if (!known && !key.equals(DIR) && !GROUPED.contains(key)) {
                throw new DBException("unknown property " + key + "; the Bellows binding accepts "
                        + String.join(", ", knownKeys()));
            }
            CompactionStyle scheme = schemeOf(key);
            if (scheme != null && scheme != style) {
                throw new DBException(key + " is an option of compaction scheme " + scheme + ", but " + COMPACTION
                        + " is " + style + (given.containsKey(COMPACTION) ? "" : " (the default)") + "; set "
                        + COMPACTION + "=" + scheme + " to use it");
            }
            try {
                if (option != null) {
                    option.apply(builder, key, value);
                } else if (flsmOption != null) {
                    flsmOption.apply(flsm, key, value);
                } else if (trieOption != null) {
                    trieOption.apply(trie, key, value);
                } else if (ptierOption != null) {
                    ptierOption.apply(ptier, key, value);
                } else if (triadOption != null) {
                    triadOption.apply(triad, key, value);
                }
            } catch (IllegalArgumentException limit) {
                throw new DBException(key + "=" + value + " is out of range: " + limit.getMessage(), limit);
            }
        }
        if (given.containsKey(L0_COMPACTION) || given.containsKey(L0_SLOWDOWN) || given.containsKey(L0_STOP)) {
            int compaction = intOr(given, L0_COMPACTION, defaults.l0CompactionTrigger());
            int slowdown = intOr(given, L0_SLOWDOWN, defaults.l0SlowdownTrigger());
            int stop = intOr(given, L0_STOP, defaults.l0StopTrigger());
            try {
                builder.l0Triggers(compaction, slowdown, stop);
            } catch (IllegalArgumentException limit) {
                throw new DBException(L0_COMPACTION + "/" + L0_SLOWDOWN + "/" + L0_STOP + " = " + compaction + "/"
                        + slowdown + "/" + stop + " rejected: " + limit.getMessage(), limit);
            }
        }
        if (given.containsKey(FLSM_TOP_BITS) || given.containsKey(FLSM_BIT_DECREMENT)) {
            int top = intOr(given, FLSM_TOP_BITS, FlsmOptions.defaults().topLevelBits());
            int decrement = intOr(given, FLSM_BIT_DECREMENT, FlsmOptions.defaults().bitDecrement());
            try {
                flsm.guardBits(top, decrement);
            } catch (IllegalArgumentException limit) {
                throw new DBException(FLSM_TOP_BITS + "/" + FLSM_BIT_DECREMENT + " = " + top + "/" + decrement
                        + " rejected: " + limit.getMessage(), limit);
            }
        }
        if (given.containsKey(TRIE_PILE_TRIGGER) || given.containsKey(TRIE_PILE_SLOWDOWN)
                || given.containsKey(TRIE_PILE_STOP)) {
            int trigger = intOr(given, TRIE_PILE_TRIGGER, TrieOptions.defaults().pileTrigger());
            int slowdown = intOr(given, TRIE_PILE_SLOWDOWN, TrieOptions.defaults().pileSlowdown());
            int stop = intOr(given, TRIE_PILE_STOP, TrieOptions.defaults().pileStop());
            try {
                trie.pileLimits(trigger, slowdown, stop);
            } catch (IllegalArgumentException limit) {
                throw new DBException(TRIE_PILE_TRIGGER + "/" + TRIE_PILE_SLOWDOWN + "/" + TRIE_PILE_STOP + " = "
                        + trigger + "/" + slowdown + "/" + stop + " rejected: " + limit.getMessage(), limit);
            }
        }
        if (given.containsKey(TRACE)) {
            Path trace;
            try {
                trace = Path.of(given.get(TRACE)).toAbsolutePath().normalize();
            } catch (InvalidPathException e) {
                throw new DBException(TRACE + "=" + given.get(TRACE) + " is not a valid path: " + e.getMessage(), e);
            }
            boolean values = given.containsKey(TRACE_VALUES) && parseBoolean(TRACE_VALUES, given.get(TRACE_VALUES));
            builder.trace(trace, TraceOptions.builder().values(values).build());
        } else if (given.containsKey(TRACE_VALUES)) {
            throw new DBException(TRACE_VALUES + " needs " + TRACE + "=FILE");
        }
        CompactionOptions schemeOptions = switch (style) {
            case FLSM -> flsm.build();
            case LSM_TRIE -> trie.build();
            case PTIER -> ptier.build();
            case TRIAD -> triad.build();
            default -> CompactionOptions.defaults(style);
        };
        builder.compaction(schemeOptions);
        EngineOptions options;
        try {
            options = builder.build();
        } catch (IllegalArgumentException limit) {
            throw new DBException("options do not fit together: " + limit.getMessage(), limit);
        }
        given.remove(DIR);
        return new BellowsSettings(dir, options, durability, given);
    }

    Path dir() {
        return dir;
    }

    EngineOptions options() {
        return options;
    }

    Durability durability() {
        return durability;
    }

    /**
     * Whether {@code other} names the same directory with the same other {@code bellows.*} properties, so
     * both can share one engine. Directories compare normalized: {@code /tmp/db/} and {@code /tmp/db} match.
     */
    boolean sameAs(BellowsSettings other) {
        return dir.equals(other.dir) && tuning.equals(other.tuning);
    }

    @Override
    public String toString() {
        return DIR + "=" + dir + (tuning.isEmpty() ? "" : " " + tuning);
    }

    static <E extends Enum<E>> E parseEnum(String key, String value, Class<E> type) throws DBException {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw new DBException(key + "=" + value + " is not one of " + Arrays.toString(type.getEnumConstants()));
    }

    static boolean parseBoolean(String key, String value) throws DBException {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new DBException(key + "=" + value + " is not true or false");
    }

    static int parseInt(String key, String value) throws DBException {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new DBException(key + "=" + value + " is not an integer", e);
        }
    }

    static long parseLong(String key, String value) throws DBException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new DBException(key + "=" + value + " is not an integer", e);
        }
    }

    static double parseDouble(String key, String value) throws DBException {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new DBException(key + "=" + value + " is not a number", e);
        }
    }

    /** A byte count: digits with an optional binary suffix k, m, g or t (KiB, MiB, GiB, TiB). */
    static long parseBytes(String key, String value) throws DBException {
        Matcher m = BYTES.matcher(value);
        if (!m.matches()) {
            throw new DBException(key + "=" + value + " is not a byte count such as 67108864 or 64m (suffixes k, m, g, t)");
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new DBException(key + "=" + value + " is too large", e);
        }
    }

    private static int parseIntBytes(String key, String value) throws DBException {
        long n = parseBytes(key, value);
        if (n > Integer.MAX_VALUE) {
            throw new DBException(key + "=" + value + " is too large: at most " + Integer.MAX_VALUE + " bytes");
        }
        return (int) n;
    }

    private static int intOr(Map<String, String> given, String key, int fallback) throws DBException {
        String v = given.get(key);
        return v == null ? fallback : parseInt(key, v);
    }

    /** The compaction scheme a key sets an option of, or null for a key that belongs to no one scheme. */
    static CompactionStyle schemeOf(String key) {
        for (Map.Entry<String, CompactionStyle> e : SCHEME_PREFIXES.entrySet()) {
            if (key.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    /** One {@code bellows.*} key: parses its value and applies it to the builder, which checks the limits. */
    @FunctionalInterface
    private interface Option {
        void apply(EngineOptions.Builder builder, String key, String value) throws DBException;
    }

    /** One key of a scheme's options: parses its value and applies it to that scheme's options builder. */
    @FunctionalInterface
    private interface SchemeOption<B> {
        void apply(B builder, String key, String value) throws DBException;
    }
}
