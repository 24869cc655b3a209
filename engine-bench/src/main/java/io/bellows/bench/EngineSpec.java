package io.bellows.bench;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One engine configuration of --engine / --engines: {@code rocksdb}, {@code bellows} (the scheme,
 * policy and memory layout of --compaction, --inmemory and --memory_layout), or
 * {@code bellows:SCHEME[/POLICY[/LAYOUT]]} naming them, e.g. {@code bellows:LEVELED/NONE} or
 * {@code bellows:LEVELED/BASIC/OFF_HEAP}. Names are the public enums' constants, looked up by name, so
 * new schemes, policies and layouts are accepted as soon as the engine has them; the string is a
 * '/'-separated path so that further Bellows dimensions append as further parts.
 *
 * @param compaction null for RocksDB, or for bare {@code bellows} until {@link #resolve} fills it in
 * @param inMemory null for RocksDB, or when not named until {@link #resolve}
 * @param layout null for RocksDB, or when not named until {@link #resolve}
 */
record EngineSpec(Kind kind, CompactionStyle compaction, InMemoryCompaction inMemory, MemoryLayout layout) {
    enum Kind {
        BELLOWS,
        ROCKSDB
    }

    static EngineSpec parse(String text) {
        String s = text.trim();
        int colon = s.indexOf(':');
        String name = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
        String rest = colon < 0 ? "" : s.substring(colon + 1);
        switch (name) {
            case "rocksdb":
                if (colon >= 0) {
                    throw new FlagException("engine 'rocksdb' takes no configuration, got '" + text + "'");
                }
                return new EngineSpec(Kind.ROCKSDB, null, null, null);
            case "bellows":
                if (colon < 0) {
                    return new EngineSpec(Kind.BELLOWS, null, null, null);
                }
                String[] parts = rest.split("/", -1);
                if (parts.length > 3) {
                    throw new FlagException("engine '" + text + "' has more parts than bellows:SCHEME/POLICY/LAYOUT");
                }
                CompactionStyle style = constant(text, parts[0], CompactionStyle.class);
                InMemoryCompaction policy = parts.length > 1 ? constant(text, parts[1], InMemoryCompaction.class) : null;
                MemoryLayout layout = parts.length > 2 ? constant(text, parts[2], MemoryLayout.class) : null;
                return new EngineSpec(Kind.BELLOWS, style, policy, layout);
            default:
                throw new FlagException("unknown engine '" + text + "'; expected rocksdb, bellows or"
                        + " bellows:SCHEME/POLICY[/LAYOUT], e.g. bellows:LEVELED/NONE");
        }
    }

    /** A comma-separated list; each configuration may appear once. */
    static List<EngineSpec> parseList(String list, EngineOptions defaults) {
        List<EngineSpec> out = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            if (part.isBlank()) {
                throw new FlagException("--engines has an empty entry in '" + list + "'");
            }
            EngineSpec spec = parse(part).resolve(defaults);
            if (out.contains(spec)) {
                throw new FlagException("--engines names " + spec.label() + " twice");
            }
            out.add(spec);
        }
        return List.copyOf(out);
    }

    /**
     * Fills in what the spec leaves unnamed from {@code defaults} (the --compaction, --inmemory and
     * --memory_layout flags).
     */
    EngineSpec resolve(EngineOptions defaults) {
        if (kind == Kind.ROCKSDB) {
            return this;
        }
        return new EngineSpec(kind, compaction == null ? defaults.compaction() : compaction,
                inMemory == null ? defaults.inMemoryCompaction() : inMemory,
                layout == null ? defaults.memoryLayout() : layout);
    }

    /**
     * {@code options} with this spec's scheme, policy and layout; REQUIRES resolved. The scheme keeps
     * the scheme options of {@code options} when they are its own, else takes its defaults.
     */
    EngineOptions apply(EngineOptions options) {
        if (kind == Kind.ROCKSDB) {
            return options;
        }
        EngineOptions.Builder b = options.toBuilder();
        if (options.compaction() != compaction) {
            b.compaction(compaction);
        }
        return b.inMemoryCompaction(inMemory).memoryLayout(layout == null ? options.memoryLayout() : layout).build();
    }

    /**
     * The canonical text, which {@link #parse} reads back: "rocksdb", "bellows:LEVELED/NONE" or
     * "bellows:LEVELED/BASIC/OFF_HEAP". ON_HEAP, the engine's default layout, is left out, so labels
     * and file names of on-heap configurations read as they did before layouts existed; a child JVM
     * of compare mode therefore gets no --memory_layout flag and starts from ON_HEAP.
     */
    String label() {
        if (kind == Kind.ROCKSDB) {
            return "rocksdb";
        }
        if (compaction == null) {
            return "bellows";
        }
        String text = "bellows:" + compaction.name() + (inMemory == null ? "" : "/" + inMemory.name());
        return inMemory == null || layout == null || layout == MemoryLayout.ON_HEAP ? text : text + "/" + layout.name();
    }

    /** The label as a file-name part: "bellows-LEVELED-NONE". */
    String fileName() {
        return label().replace(':', '-').replace('/', '-');
    }

    private static <E extends Enum<E>> E constant(String spec, String name, Class<E> type) {
        try {
            return Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new FlagException("engine '" + spec + "': '" + name + "' is not one of "
                    + Arrays.toString(type.getEnumConstants()));
        }
    }
}
