package io.bellows.bench;

import static io.bellows.bench.BenchFlags.addScheme;
import static io.bellows.bench.BenchFlags.bool;
import static io.bellows.bench.BenchFlags.bytesIn;
import static io.bellows.bench.BenchFlags.doubleIn;
import static io.bellows.bench.BenchFlags.engine;
import static io.bellows.bench.BenchFlags.enumValue;
import static io.bellows.bench.BenchFlags.longIn;
import static io.bellows.bench.BenchFlags.sizeText;

import io.bellows.engine.CompactionPriority;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.TriadOptions;
import java.util.Locale;
import java.util.Map;

/**
 * The flags that set one compaction scheme's options (LEVELED, FLSM, PTIER, TRIAD; LSM_TRIE's one flag sits with
 * the table flags), each tagged with its scheme so that compare mode forwards it only to engines of
 * that scheme. Kept apart from {@link BenchFlags} so that each file stays one screenful of flags.
 */
final class SchemeFlags {
    private SchemeFlags() {}

    static void add(Map<String, BenchFlags.Flag> m) {
        addScheme(m, CompactionStyle.LEVELED, "leveled_dynamic_level_bytes", "true|false",
                Boolean.toString(LeveledOptions.defaults().dynamicLevelBytes()),
                "LEVELED: size level targets from the last level (RocksDB's level_compaction_dynamic_level_bytes)",
                (v, s) -> v.leveled.dynamicLevelBytes(bool("leveled_dynamic_level_bytes", s)));
        addScheme(m, CompactionStyle.LEVELED, "leveled_priority", "min_overlapping_ratio|round_robin",
                LeveledOptions.defaults().priority().name().toLowerCase(Locale.ROOT),
                "LEVELED: which table of a level over its target goes down (RocksDB's compaction_pri)",
                (v, s) -> v.leveled.priority(enumValue("leveled_priority", s, CompactionPriority.class)));
        FlsmOptions flsm = FlsmOptions.defaults();
        PtierOptions ptier = PtierOptions.defaults();
        TriadOptions triad = TriadOptions.defaults();
        addScheme(m, CompactionStyle.FLSM, "flsm_top_level_bits", "N", Integer.toString(flsm.topLevelBits()),
                "FLSM: hash bits of a level-0 guard; level i needs top - i * decrement (with --flsm_bit_decrement)",
                (v, s) -> v.flsmTopLevelBits = (int) longIn("flsm_top_level_bits", s, 1, 62));
        addScheme(m, CompactionStyle.FLSM, "flsm_bit_decrement", "N", Integer.toString(flsm.bitDecrement()),
                "FLSM: fewer guard bits per level",
                (v, s) -> v.flsmBitDecrement = (int) longIn("flsm_bit_decrement", s, 0, 16));
        addScheme(m, CompactionStyle.FLSM, "flsm_max_tables_per_guard", "N", Integer.toString(flsm.maxTablesPerGuard()),
                "FLSM: overlapping tables that make a guard due (max_sstables_per_guard)",
                (v, s) -> engine("flsm_max_tables_per_guard",
                        () -> v.flsm.maxTablesPerGuard((int) longIn("flsm_max_tables_per_guard", s, 1, 1000))));
        addScheme(m, CompactionStyle.FLSM, "flsm_guard_max_bytes", "BYTES", sizeText(flsm.guardMaxBytes()),
                "FLSM: byte cap of a level-1 guard, doubling per level",
                (v, s) -> engine("flsm_guard_max_bytes",
                        () -> v.flsm.guardMaxBytes(bytesIn("flsm_guard_max_bytes", s))));
        addScheme(m, CompactionStyle.FLSM, "flsm_guard_min_bytes", "BYTES", sizeText(flsm.guardMinBytes()),
                "FLSM: a guard left holding less than this after a compaction is retired; 0 keeps every guard",
                (v, s) -> engine("flsm_guard_min_bytes",
                        () -> v.flsm.guardMinBytes(bytesIn("flsm_guard_min_bytes", s))));
        addScheme(m, CompactionStyle.FLSM, "flsm_seek_compaction", "N",
                Integer.toString(flsm.seekCompactionThreshold()),
                "FLSM: consecutive seeks without writes that trigger a seek-based compaction; 0 = off",
                (v, s) -> engine("flsm_seek_compaction", () -> v.flsm.seekCompactionThreshold(
                        (int) longIn("flsm_seek_compaction", s, 0, 1_000_000))));
        addScheme(m, CompactionStyle.FLSM, "flsm_parallel_seeks", "true|false", Boolean.toString(flsm.parallelSeeks()),
                "FLSM: position a last-level guard's tables on several threads per seek",
                (v, s) -> v.flsm.parallelSeeks(bool("flsm_parallel_seeks", s)));
        addScheme(m, CompactionStyle.PTIER, "ptier_prefix_length", "N", Integer.toString(ptier.prefixLength()),
                "PTIER: leading key bytes that form the prefix output tables are cut at",
                (v, s) -> engine("ptier_prefix_length",
                        () -> v.ptier.prefixLength((int) longIn("ptier_prefix_length", s, 1, 1024))));
        addScheme(m, CompactionStyle.PTIER, "ptier_split_threshold", "BYTES", "target_file_size",
                "PTIER: T_s, the bytes a table holds before a prefix change may cut it",
                (v, s) -> engine("ptier_split_threshold", () -> v.ptier.splitThreshold(bytesIn("ptier_split_threshold", s))));
        addScheme(m, CompactionStyle.PTIER, "ptier_intra_merge_reads", "N", "by table size",
                "PTIER: gets of an overlapped last-level table before its overlaps are merged",
                (v, s) -> engine("ptier_intra_merge_reads",
                        () -> v.ptier.intraLevelMergeReads((int) longIn("ptier_intra_merge_reads", s, 1, 1_000_000_000))));
        addScheme(m, CompactionStyle.TRIAD, "triad_mem", "true|false", Boolean.toString(triad.mem()),
                "TRIAD: TRIAD-MEM, keep the hottest keys in memory at a flush", (v, s) -> v.triad.mem(bool("triad_mem", s)));
        addScheme(m, CompactionStyle.TRIAD, "triad_hot_fraction", "F", Double.toString(triad.hotFraction()),
                "TRIAD: K, the hot keys kept at a flush, as a fraction of the MemStore's entries",
                (v, s) -> engine("triad_hot_fraction", () -> v.triad.hotFraction(doubleIn("triad_hot_fraction", s))));
        addScheme(m, CompactionStyle.TRIAD, "triad_flush_threshold", "N", Integer.toString(triad.flushThreshold()),
                "TRIAD: FLUSH_TH, cold keys below which a flush keeps all in memory", (v, s) -> engine("triad_flush_threshold",
                        () -> v.triad.flushThreshold((int) longIn("triad_flush_threshold", s, 0, 1 << 20))));
        addScheme(m, CompactionStyle.TRIAD, "triad_log", "true|false", Boolean.toString(triad.log()),
                "TRIAD: TRIAD-LOG, a flush turns the logs into a CL-table instead of copying them",
                (v, s) -> v.triad.log(bool("triad_log", s)));
        addScheme(m, CompactionStyle.TRIAD, "triad_disk", "true|false", Boolean.toString(triad.disk()),
                "TRIAD: TRIAD-DISK, defer L0 compaction while L0 and L1 share few keys",
                (v, s) -> v.triad.disk(bool("triad_disk", s)));
        addScheme(m, CompactionStyle.TRIAD, "triad_overlap_ratio", "F", Double.toString(triad.overlapRatioThreshold()),
                "TRIAD: OVERLAP_RATIO_TH, the overlap ratio below which L0 compaction is deferred",
                (v, s) -> engine("triad_overlap_ratio", () -> v.triad.overlapRatioThreshold(doubleIn("triad_overlap_ratio", s))));
        addScheme(m, CompactionStyle.TRIAD, "triad_dynamic_level_bytes", "true|false",
                Boolean.toString(triad.dynamicLevelBytes()), "TRIAD: size the leveled part's targets from the last level",
                (v, s) -> v.triad.dynamicLevelBytes(bool("triad_dynamic_level_bytes", s)));
        addScheme(m, CompactionStyle.TRIAD, "triad_l0_max_tables", "N", Integer.toString(triad.l0MaxTables()),
                "TRIAD: MAX_FILES_L0, L0 tables at which a deferred compaction is forced", (v, s) -> engine(
                        "triad_l0_max_tables", () -> v.triad.l0MaxTables((int) longIn("triad_l0_max_tables", s, 1, 1000))));
    }
}
