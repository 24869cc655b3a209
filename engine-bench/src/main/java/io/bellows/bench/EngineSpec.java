package io.bellows.bench;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One engine configuration of --engine / --engines: {@code rocksdb}, {@code bellows} (the scheme and
 * policy of --compaction and --inmemory), or {@code bellows:SCHEME[/POLICY]} naming them, e.g.
 * {@code bellows:LEVELED/NONE}. Names are the public enums' constants, looked up by name, so new
 * schemes and policies are accepted as soon as the engine has them; the string is a '/'-separated
 * path so that further Bellows dimensions append as further parts.
 *
 * @param compaction null for RocksDB, or for bare {@code bellows} until {@link #resolve} fills it in
 * @param inMemory null for RocksDB, or when not named until {@link #resolve}
 */
record EngineSpec(Kind kind, CompactionStyle compaction, InMemoryCompaction inMemory) {
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
                return new EngineSpec(Kind.ROCKSDB, null, null);
            case "bellows":
                if (colon < 0) {
                    return new EngineSpec(Kind.BELLOWS, null, null);
                }
                String[] parts = rest.split("/", -1);
                if (parts.length > 2) {
                    throw new FlagException("engine '" + text + "' has more parts than bellows:SCHEME/POLICY");
                }
                CompactionStyle style = constant(text, parts[0], CompactionStyle.class);
                InMemoryCompaction policy = parts.length > 1 ? constant(text, parts[1], InMemoryCompaction.class) : null;
                return new EngineSpec(Kind.BELLOWS, style, policy);
            default:
                throw new FlagException("unknown engine '" + text + "'; expected rocksdb, bellows or"
                        + " bellows:SCHEME/POLICY, e.g. bellows:LEVELED/NONE");
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

    /** Fills in what the spec leaves unnamed from {@code defaults} (the --compaction and --inmemory flags). */
    EngineSpec resolve(EngineOptions defaults) {
        if (kind == Kind.ROCKSDB) {
            return this;
        }
        return new EngineSpec(kind, compaction == null ? defaults.compaction() : compaction,
                inMemory == null ? defaults.inMemoryCompaction() : inMemory);
    }

    /** {@code options} with this spec's scheme and policy; REQUIRES resolved. */
    EngineOptions apply(EngineOptions options) {
        if (kind == Kind.ROCKSDB) {
            return options;
        }
        return options.toBuilder().compaction(compaction).inMemoryCompaction(inMemory).build();
    }

    /** The canonical text, which {@link #parse} reads back: "rocksdb" or "bellows:LEVELED/NONE". */
    String label() {
        if (kind == Kind.ROCKSDB) {
            return "rocksdb";
        }
        if (compaction == null) {
            return "bellows";
        }
        return "bellows:" + compaction.name() + (inMemory == null ? "" : "/" + inMemory.name());
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
