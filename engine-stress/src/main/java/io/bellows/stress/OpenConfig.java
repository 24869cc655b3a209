package io.bellows.stress;

import io.bellows.engine.CompactionOptions;
import io.bellows.engine.CompactionPriority;
import io.bellows.engine.Compression;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.WriteBufferManager;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * The engine options of one open, drawn at random as db_crashtest does: everything a store allows to
 * change between opens (MemStore policy and layout, sizes, WAL sync interval, table and cache knobs,
 * level and L0 triggers, background threads, the scheme's tunable options) over ranges small enough
 * that a few seconds of writes flush and compact many times. What a store fixes at creation comes from
 * {@link StoreShape}. Kept as named values, in builder order, so that a run prints exactly what it used.
 */
final class OpenConfig {
    private final Map<String, String> values;

    private OpenConfig(Map<String, String> values) {
        this.values = values;
    }

    static OpenConfig random(StoreShape shape, Random r) {
        Map<String, String> m = new LinkedHashMap<>();
        MemoryLayout layout = StoreShape.pick(r, MemoryLayout.values());
        long memstore = logUniform(r, 64L << 10, 8L << 20);
        m.put("inMemoryCompaction", StoreShape.pick(r, InMemoryCompaction.values()).name());
        m.put("memoryLayout", layout.name());
        m.put("memstoreSize", Long.toString(memstore));
        long minOffHeap = Math.max(1L << 20, 3 * memstore);
        m.put("offHeapLimit", Long.toString(r.nextBoolean() ? 0 : minOffHeap + (long) (r.nextDouble() * minOffHeap)));
        m.put("walSyncIntervalMs", Integer.toString(StoreShape.pickInt(r, 1, 10, 50, 100, 500, 5000)));
        m.put("activeSegmentFraction", Double.toString(StoreShape.pick(r, 0.005, 0.02, 0.05, 0.1, 0.3, 1.0)));
        m.put("pipelineSegments", Integer.toString(1 + r.nextInt(6)));
        m.put("adaptiveThreshold", String.format(Locale.ROOT, "%.2f", r.nextDouble()));
        m.put("mslab", Boolean.toString(layout == MemoryLayout.OFF_HEAP || r.nextInt(4) > 0));
        m.put("mslabChunkSize", Integer.toString(StoreShape.pickInt(r, 4096, 65536, 1 << 20, 2 << 20)));
        m.put("maxValueLength", Integer.toString(Math.max(shape.maxValueLength(), StoreShape.pickInt(r, 0, 256 << 10))));
        m.put("blockSize", Integer.toString(StoreShape.pickInt(r, 512, 1024, 4096, 16384, 65536)));
        m.put("blockRestartInterval", Integer.toString(1 + r.nextInt(32)));
        m.put("bloomBitsPerKey", Integer.toString(StoreShape.pickInt(r, 0, 4, 10, 16)));
        m.put("blockCacheSize", Long.toString(StoreShape.pick(r, 0L, 64L << 10, 1L << 20, 32L << 20)));
        m.put("targetFileSize", Long.toString(logUniform(r, 64L << 10, 4L << 20)));
        m.put("maxBytesForLevelBase", Long.toString(logUniform(r, 64L << 10, 8L << 20)));
        m.put("levelSizeMultiplier", Integer.toString(2 + r.nextInt(9)));
        int c = 1 + r.nextInt(8);
        int s = c + r.nextInt(17);
        int stop = s + r.nextInt(17);
        m.put("l0Triggers", c + "," + s + "," + stop);
        m.put("directIo", Boolean.toString(r.nextBoolean()));
        m.put("backgroundThreads", Integer.toString(1 + r.nextInt(4)));
        m.put("compression", StoreShape.pick(r, "NONE", "NONE,LZ4", "LZ4", "NONE,ZSTD"));
        m.put("bottommostCompression", StoreShape.pick(r, Compression.values()).name());
        // A MemStore budget (WriteBufferManager) around the MemStore's size, in one open in three: its
        // switches come at other moments than the MemStore's own, so kills meet them too. 0: none.
        long budgetFloor = Math.max(64L << 10, memstore / 4);
        m.put("writeBufferManager", Long.toString(r.nextInt(3) == 0
                ? logUniform(r, budgetFloor, Math.max(2 * budgetFloor, 2 * memstore)) : 0));
        switch (shape.scheme()) {
            case FLSM -> {
                // The deepest level needs at least 5 hash bits (a guard in 32 keys or fewer). A store keeps
                // the guards of every open for good, and denser ones grew it to 19,000 live tables of
                // 1 KiB, more than the 20,000 files the process may open (see docs/stress.md).
                int dec = r.nextInt(4);
                m.put("flsm.guardBits", Math.min(62, (shape.numLevels() - 1) * dec + 5 + r.nextInt(8)) + "," + dec);
                m.put("flsm.maxTablesPerGuard", Integer.toString(1 + r.nextInt(8)));
                m.put("flsm.guardMaxBytes", Long.toString(logUniform(r, 64L << 10, 8L << 20)));
                m.put("flsm.guardMinBytes", Long.toString(StoreShape.pick(r, 0L, 1L << 10, 64L << 10, 256L << 10)));
                m.put("flsm.seekCompactionThreshold", Integer.toString(StoreShape.pickInt(r, 0, 1, 10, 100)));
                m.put("flsm.parallelSeeks", Boolean.toString(r.nextInt(4) == 0));
            }
            case LSM_TRIE -> {
                int pc = 2 + r.nextInt(9);
                int ps = pc + r.nextInt(11);
                m.put("trie.pileLimits", pc + "," + ps + "," + (ps + r.nextInt(11)));
                m.put("trie.bloomBitsPerKey", Integer.toString(1 + r.nextInt(20)));
                m.put("trie.filterCacheSize", Long.toString(StoreShape.pick(r, 0L, 64L << 10, 4L << 20)));
                m.put("trie.gcGarbageRatio", String.format(Locale.ROOT, "%.2f", 0.05 + 0.9 * r.nextDouble()));
            }
            case PTIER -> {
                m.put("ptier.prefixLength", Integer.toString(StoreShape.pickInt(r, 1, 2, 4, 8, 15)));
                m.put("ptier.splitThreshold", Long.toString(StoreShape.pick(r, 0L, 64L << 10, 1L << 20)));
                m.put("ptier.intraLevelMergeReads", Integer.toString(StoreShape.pickInt(r, 0, 1, 10, 100)));
            }
            case TRIAD -> {
                m.put("triad.mem", Boolean.toString(r.nextInt(4) > 0));
                m.put("triad.hotFraction", String.format(Locale.ROOT, "%.3f", StoreShape.pick(r, 0.001, 0.01, 0.1, 0.5)));
                m.put("triad.flushThreshold", Integer.toString(StoreShape.pickInt(r, 0, 10, 100, 1000)));
                m.put("triad.disk", Boolean.toString(r.nextInt(4) > 0));
                m.put("triad.overlapRatioThreshold", String.format(Locale.ROOT, "%.2f", r.nextDouble()));
                // At most the L0 stop trigger, which EngineOptions requires (writers would stop behind a deferral).
                m.put("triad.l0MaxTables", Integer.toString(1 + r.nextInt(stop)));
                m.put("triad.log", Boolean.toString(r.nextInt(4) > 0));
                m.put("dynamicLevelBytes", Boolean.toString(r.nextBoolean()));
            }
            case LEVELED -> {
                m.put("dynamicLevelBytes", Boolean.toString(r.nextBoolean()));
                m.put("priority", StoreShape.pick(r, CompactionPriority.values()).name());
            }
            default -> {
                // Every scheme has a case above; a new one gets its options there.
            }
        }
        return new OpenConfig(m);
    }

    /** The options of this open, with the shape's fixed parts. */
    EngineOptions toOptions(StoreShape shape) {
        int[] l0 = ints("l0Triggers");
        // Configurations recorded before the budget was drawn have none.
        long budget = Long.parseLong(values.getOrDefault("writeBufferManager", "0"));
        return EngineOptions.builder()
                .compaction(schemeOptions(shape))
                .inMemoryCompaction(InMemoryCompaction.valueOf(values.get("inMemoryCompaction")))
                .memoryLayout(MemoryLayout.valueOf(values.get("memoryLayout")))
                .memstoreSize(l("memstoreSize"))
                .offHeapLimit(l("offHeapLimit"))
                .walSyncInterval(Duration.ofMillis(l("walSyncIntervalMs")))
                .activeSegmentFraction(Double.parseDouble(values.get("activeSegmentFraction")))
                .pipelineSegments(i("pipelineSegments"))
                .adaptiveThreshold(Double.parseDouble(values.get("adaptiveThreshold")))
                .mslab(Boolean.parseBoolean(values.get("mslab")))
                .mslabChunkSize(i("mslabChunkSize"))
                .maxValueLength(i("maxValueLength"))
                .blockSize(i("blockSize"))
                .blockRestartInterval(i("blockRestartInterval"))
                .bloomBitsPerKey(i("bloomBitsPerKey"))
                .blockCacheSize(l("blockCacheSize"))
                .targetFileSize(l("targetFileSize"))
                .maxBytesForLevelBase(l("maxBytesForLevelBase"))
                .levelSizeMultiplier(i("levelSizeMultiplier"))
                .numLevels(shape.numLevels())
                .l0Triggers(l0[0], l0[1], l0[2])
                .directIo(Boolean.parseBoolean(values.get("directIo")))
                .backgroundThreads(i("backgroundThreads"))
                .compression(codecs(values.get("compression")))
                .bottommostCompression(Compression.valueOf(values.get("bottommostCompression")))
                .writeBufferManager(budget > 0 ? WriteBufferManager.create(budget) : null)
                .build();
    }

    private static Compression[] codecs(String list) {
        return Arrays.stream(list.split(",")).map(Compression::valueOf).toArray(Compression[]::new);
    }

    private CompactionOptions schemeOptions(StoreShape shape) {
        return switch (shape.scheme()) {
            case LEVELED -> LeveledOptions.builder()
                    .dynamicLevelBytes(Boolean.parseBoolean(values.get("dynamicLevelBytes")))
                    .priority(CompactionPriority.valueOf(values.get("priority"))).build();
            case TRIAD -> TriadOptions.builder().mem(Boolean.parseBoolean(values.get("triad.mem")))
                    .hotFraction(Double.parseDouble(values.get("triad.hotFraction")))
                    .flushThreshold(i("triad.flushThreshold"))
                    .disk(Boolean.parseBoolean(values.get("triad.disk")))
                    .overlapRatioThreshold(Double.parseDouble(values.get("triad.overlapRatioThreshold")))
                    .l0MaxTables(i("triad.l0MaxTables"))
                    .log(Boolean.parseBoolean(values.get("triad.log")))
                    .dynamicLevelBytes(Boolean.parseBoolean(values.get("dynamicLevelBytes")))
                    .build();
            case FLSM -> {
                int[] bits = ints("flsm.guardBits");
                yield FlsmOptions.builder().guardBits(bits[0], bits[1])
                        .maxTablesPerGuard(i("flsm.maxTablesPerGuard"))
                        .guardMaxBytes(l("flsm.guardMaxBytes"))
                        .guardMinBytes(l("flsm.guardMinBytes"))
                        .seekCompactionThreshold(i("flsm.seekCompactionThreshold"))
                        .parallelSeeks(Boolean.parseBoolean(values.get("flsm.parallelSeeks")))
                        .build();
            }
            case LSM_TRIE -> {
                int[] piles = ints("trie.pileLimits");
                yield TrieOptions.builder().depth(shape.trieDepth()).tableBuckets(shape.trieBuckets())
                        .hashSeed(shape.trieHashSeed())
                        .pileLimits(piles[0], piles[1], piles[2])
                        .bloomBitsPerKey(i("trie.bloomBitsPerKey"))
                        .filterCacheSize(l("trie.filterCacheSize"))
                        .gcGarbageRatio(Double.parseDouble(values.get("trie.gcGarbageRatio")))
                        .build();
            }
            case PTIER -> PtierOptions.builder().prefixLength(i("ptier.prefixLength"))
                    .splitThreshold(l("ptier.splitThreshold"))
                    .intraLevelMergeReads(i("ptier.intraLevelMergeReads"))
                    .build();
        };
    }

    void store(Properties p, String prefix) {
        values.forEach((k, v) -> p.setProperty(prefix + k, v));
    }

    static OpenConfig load(Properties p, String prefix) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith(prefix)) {
                m.put(name.substring(prefix.length()), p.getProperty(name));
            }
        }
        return new OpenConfig(m);
    }

    /** Every value, {@code name=value} separated by spaces. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    private int i(String name) {
        return Integer.parseInt(values.get(name));
    }

    private long l(String name) {
        return Long.parseLong(values.get(name));
    }

    private int[] ints(String name) {
        String[] parts = values.get(name).split(",");
        int[] out = new int[parts.length];
        for (int k = 0; k < parts.length; k++) {
            out[k] = Integer.parseInt(parts[k]);
        }
        return out;
    }

    static long logUniform(Random r, long min, long max) {
        return Math.round(Math.exp(Math.log(min) + r.nextDouble() * (Math.log(max) - Math.log(min))));
    }
}
