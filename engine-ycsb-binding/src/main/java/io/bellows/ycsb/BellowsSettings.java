package io.bellows.ycsb;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
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
 * a configuration nobody asked for. Enums are parsed by constant name, so a scheme or MemStore policy added
 * to the engine is accepted here without a change.
 */
final class BellowsSettings {
    static final String PREFIX = "bellows.";
    static final String DIR = "bellows.dir";
    static final String DURABILITY = "bellows.durability";
    static final String L0_COMPACTION = "bellows.l0_compaction_trigger";
    static final String L0_SLOWDOWN = "bellows.l0_slowdown_trigger";
    static final String L0_STOP = "bellows.l0_stop_trigger";
    static final String FLSM_TOP_BITS = "bellows.flsm_top_level_bits";
    static final String FLSM_BIT_DECREMENT = "bellows.flsm_bit_decrement";
    static final String TRIE_PILE_TRIGGER = "bellows.trie_pile_trigger";
    static final String TRIE_PILE_SLOWDOWN = "bellows.trie_pile_slowdown";
    static final String TRIE_PILE_STOP = "bellows.trie_pile_stop";
    /** Keys set together through one builder call; each group is applied after the single keys. */
    private static final List<String> GROUPED = List.of(L0_COMPACTION, L0_SLOWDOWN, L0_STOP, FLSM_TOP_BITS,
            FLSM_BIT_DECREMENT, TRIE_PILE_TRIGGER, TRIE_PILE_SLOWDOWN, TRIE_PILE_STOP);

    private static final Pattern BYTES = Pattern.compile("(\\d{1,19})([kmgt]?)", Pattern.CASE_INSENSITIVE);

    /** The keys other than {@link #DIR}, {@link #DURABILITY} and the L0 triggers, each with its builder call. */
    private static final Map<String, Option> OPTIONS = new TreeMap<>();

    static {
        OPTIONS.put("bellows.compaction", (b, k, v) -> b.compaction(parseEnum(k, v, CompactionStyle.class)));
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
        OPTIONS.put("bellows.create_if_missing", (b, k, v) -> b.createIfMissing(parseBoolean(k, v)));
        OPTIONS.put("bellows.error_if_exists", (b, k, v) -> b.errorIfExists(parseBoolean(k, v)));
        OPTIONS.put("bellows.active_segment_fraction", (b, k, v) -> b.activeSegmentFraction(parseDouble(k, v)));
        OPTIONS.put("bellows.pipeline_segments", (b, k, v) -> b.pipelineSegments(parseInt(k, v)));
        OPTIONS.put("bellows.adaptive_threshold", (b, k, v) -> b.adaptiveThreshold(parseDouble(k, v)));
        OPTIONS.put("bellows.mslab", (b, k, v) -> b.mslab(parseBoolean(k, v)));
        OPTIONS.put("bellows.mslab_chunk_size", (b, k, v) -> b.mslabChunkSize(parseIntBytes(k, v)));
        OPTIONS.put("bellows.memory_layout", (b, k, v) -> b.memoryLayout(parseEnum(k, v, MemoryLayout.class)));
        OPTIONS.put("bellows.offheap_limit", (b, k, v) -> b.offHeapLimit(parseBytes(k, v)));
        OPTIONS.put("bellows.flsm_max_tables_per_guard", (b, k, v) -> b.flsmMaxTablesPerGuard(parseInt(k, v)));
        OPTIONS.put("bellows.flsm_guard_max_bytes", (b, k, v) -> b.flsmGuardMaxBytes(parseBytes(k, v)));
        OPTIONS.put("bellows.flsm_seek_compaction_threshold",
                (b, k, v) -> b.flsmSeekCompactionThreshold(parseInt(k, v)));
        OPTIONS.put("bellows.flsm_parallel_seeks", (b, k, v) -> b.flsmParallelSeeks(parseBoolean(k, v)));
        OPTIONS.put("bellows.trie_depth", (b, k, v) -> b.trieDepth(parseInt(k, v)));
        OPTIONS.put("bellows.trie_table_buckets", (b, k, v) -> b.trieTableBuckets(parseInt(k, v)));
        OPTIONS.put("bellows.trie_bloom_bits", (b, k, v) -> b.trieBloomBitsPerKey(parseInt(k, v)));
        OPTIONS.put("bellows.trie_filter_cache_size", (b, k, v) -> b.trieFilterCacheSize(parseBytes(k, v)));
        OPTIONS.put("bellows.trie_gc_garbage_ratio", (b, k, v) -> b.trieGcGarbageRatio(parseDouble(k, v)));
        OPTIONS.put("bellows.trie_hash_seed", (b, k, v) -> b.trieHashSeed(parseLong(k, v)));
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
        Durability durability = Durability.ASYNC;
        for (Map.Entry<String, String> e : given.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.equals(DIR) || GROUPED.contains(key)) {
                continue;
            }
            if (key.equals(DURABILITY)) {
                durability = parseEnum(key, value, Durability.class);
                continue;
            }
            Option option = OPTIONS.get(key);
            if (option == null) {
                throw new DBException("unknown property " + key + "; the Bellows binding accepts "
                        + String.join(", ", knownKeys()));
            }
            try {
                option.apply(builder, key, value);
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
            int top = intOr(given, FLSM_TOP_BITS, defaults.flsmTopLevelBits());
            int decrement = intOr(given, FLSM_BIT_DECREMENT, defaults.flsmBitDecrement());
            try {
                builder.flsmGuardBits(top, decrement);
            } catch (IllegalArgumentException limit) {
                throw new DBException(FLSM_TOP_BITS + "/" + FLSM_BIT_DECREMENT + " = " + top + "/" + decrement
                        + " rejected: " + limit.getMessage(), limit);
            }
        }
        if (given.containsKey(TRIE_PILE_TRIGGER) || given.containsKey(TRIE_PILE_SLOWDOWN)
                || given.containsKey(TRIE_PILE_STOP)) {
            int trigger = intOr(given, TRIE_PILE_TRIGGER, defaults.triePileTrigger());
            int slowdown = intOr(given, TRIE_PILE_SLOWDOWN, defaults.triePileSlowdown());
            int stop = intOr(given, TRIE_PILE_STOP, defaults.triePileStop());
            try {
                builder.triePileLimits(trigger, slowdown, stop);
            } catch (IllegalArgumentException limit) {
                throw new DBException(TRIE_PILE_TRIGGER + "/" + TRIE_PILE_SLOWDOWN + "/" + TRIE_PILE_STOP + " = "
                        + trigger + "/" + slowdown + "/" + stop + " rejected: " + limit.getMessage(), limit);
            }
        }
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

    /** One {@code bellows.*} key: parses its value and applies it to the builder, which checks the limits. */
    @FunctionalInterface
    private interface Option {
        void apply(EngineOptions.Builder builder, String key, String value) throws DBException;
    }
}
