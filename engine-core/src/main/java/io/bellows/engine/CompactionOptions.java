package io.bellows.engine;

/**
 * The options of one disk compaction scheme. The type selects the scheme ({@link #style()}), so a knob
 * of one scheme cannot be set on a store of another: pass one to
 * {@link EngineOptions.Builder#compaction(CompactionOptions)}, e.g.
 * {@code EngineOptions.builder().compaction(FlsmOptions.builder().maxTablesPerGuard(6).build())}.
 * Options shared by several schemes (level sizes, L0 triggers, table size) stay in {@link EngineOptions}.
 * Every implementation is immutable, validates each value when it is set, and has a
 * {@code builder()} and a {@code defaults()}.
 */
public sealed interface CompactionOptions permits LeveledOptions, FlsmOptions, TrieOptions, PtierOptions, TriadOptions {
    /** The scheme these options belong to. */
    CompactionStyle style();

    /** The default options of {@code style}. */
    static CompactionOptions defaults(CompactionStyle style) {
        return switch (style) {
            case LEVELED -> LeveledOptions.defaults();
            case FLSM -> FlsmOptions.defaults();
            case LSM_TRIE -> TrieOptions.defaults();
            case PTIER -> PtierOptions.defaults();
            case TRIAD -> TriadOptions.defaults();
        };
    }
}
