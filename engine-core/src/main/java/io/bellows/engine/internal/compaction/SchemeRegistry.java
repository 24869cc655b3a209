package io.bellows.engine.internal.compaction;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.compaction.flsm.FlsmScheme;
import io.bellows.engine.internal.compaction.leveled.LeveledScheme;
import io.bellows.engine.internal.compaction.ptier.PtierScheme;
import io.bellows.engine.internal.compaction.triad.TriadScheme;
import io.bellows.engine.internal.compaction.trie.TrieScheme;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The compaction schemes this build offers, by style: the one place that names them. A new scheme adds
 * its package and one line here; the engine creates schemes only through {@link #create}.
 */
public final class SchemeRegistry {
    private static final Map<CompactionStyle, Function<EngineOptions, CompactionScheme>> SCHEMES =
            new EnumMap<>(CompactionStyle.class);

    static {
        SCHEMES.put(CompactionStyle.LEVELED, LeveledScheme::new);
        SCHEMES.put(CompactionStyle.FLSM, FlsmScheme::new);
        SCHEMES.put(CompactionStyle.LSM_TRIE, TrieScheme::new);
        SCHEMES.put(CompactionStyle.PTIER, PtierScheme::new);
        SCHEMES.put(CompactionStyle.TRIAD, TriadScheme::new);
    }

    private SchemeRegistry() {}

    /** A new scheme for a store opened with {@code options}, configured by its scheme options. */
    public static CompactionScheme create(EngineOptions options) {
        CompactionStyle style = options.compaction();
        Function<EngineOptions, CompactionScheme> factory = SCHEMES.get(style);
        if (factory == null) {
            throw new IllegalArgumentException("compaction scheme " + style + " is not available in this build");
        }
        return factory.apply(options);
    }
}
