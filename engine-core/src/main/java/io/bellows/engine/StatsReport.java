package io.bellows.engine;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The multi-line, human-readable form of {@link EngineStats} ({@link EngineStats#report()}), in the spirit
 * of RocksDB's {@code rocksdb.stats} property: a table of levels, then one line per concern.
 */
final class StatsReport {
    private StatsReport() {}

    static String of(EngineStats s) {
        StringBuilder b = new StringBuilder(1024);
        EngineStats.Levels levels = s.levels();
        long total = levels.liveTableBytes();
        b.append("** Bellows stats **\n");
        b.append(String.format(Locale.ROOT, "%-6s %8s %12s %7s%n", "Level", "Tables", "Size(MB)", "Share"));
        int tables = 0;
        for (EngineStats.Level l : levels.perLevel()) {
            tables += l.tables();
            b.append(String.format(Locale.ROOT, "%-6s %8d %12.1f %6.1f%%%n", "L" + l.level(), l.tables(), mb(l.bytes()),
                    total == 0 ? 0.0 : 100.0 * l.bytes() / total));
        }
        b.append(String.format(Locale.ROOT, "%-6s %8d %12.1f%n", "Sum", tables, mb(total)));
        EngineStats.Io io = s.io();
        b.append(String.format(Locale.ROOT, "Writes: user %.1f MB, WAL %.1f MB, flush %.1f MB, compaction read %.1f MB"
                + " written %.1f MB, manifest %.1f MB; table I/O %s%n", mb(io.userBytesWritten()), mb(io.walBytesWritten()),
                mb(io.flushBytesWritten()), mb(io.compactionBytesRead()), mb(io.compactionBytesWritten()),
                mb(io.manifestBytesWritten()), io.tableIoMode()));
        b.append("Amplification: write ").append(ratio(io.flushBytesWritten() > 0, io.writeAmplification()))
                .append(" (RocksDB's: per flushed byte), total ")
                .append(ratio(io.userBytesWritten() > 0, io.totalWriteAmplification()))
                .append(" per user byte, space ").append(ratio(levels.userDataBytes() > 0, levels.spaceAmplification()))
                .append(" (live table bytes / user data they hold), ")
                .append(ratio(total > 0, levels.lastLevelSpaceAmplification())).append(" (RocksDB's: / deepest level's)\n");
        EngineStats.Reads r = s.reads();
        long blocks = r.blockCacheHits() + r.blockReads();
        b.append(String.format(Locale.ROOT, "Reads: %d gets, %s tables/get, block cache hit rate %s (%d hits, %d reads),"
                + " %d filter block reads, %d bloom negatives%n", r.gets(), ratio(r.gets() > 0, r.tablesProbedPerGet()),
                blocks == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * r.blockCacheHits() / blocks),
                r.blockCacheHits(), r.blockReads(), r.filterBlockReads(), r.bloomNegatives()));
        EngineStats.Background bg = s.background();
        b.append(String.format(Locale.ROOT, "Background: %d flushes, %d compactions, %d errors, pending compaction %.1f MB%n",
                bg.flushes(), bg.compactions(), bg.errors(), mb(bg.pendingCompactionBytes())));
        EngineStats.StallCauses sc = bg.stallCauses();
        b.append(String.format(Locale.ROOT, "Stalls: %d writes, %d ms (delayed %d ms, stopped by compaction %d ms,"
                + " waiting for a flush %d ms, for memory %d ms)%n", bg.stalls(), bg.stallNanos() / 1_000_000,
                sc.delayNanos() / 1_000_000, sc.stopNanos() / 1_000_000, sc.flushNanos() / 1_000_000,
                sc.memoryNanos() / 1_000_000));
        EngineStats.MemStore m = s.memstore();
        b.append(String.format(Locale.ROOT, "MemStore: %d entries, %.1f MB data, %.1f MB heap, %.1f MB off-heap,"
                + " %d pipeline segments; in-memory flushes %d, merges %d, compactions %d%n", m.entries(), mb(m.dataBytes()),
                mb(m.heapBytes()), mb(m.offHeapBytes()), m.pipelineSegments(), m.inMemoryFlushes(), m.inMemoryMerges(),
                m.inMemoryCompactions()));
        EngineStats.Recovery rec = s.recovery();
        b.append(String.format(Locale.ROOT, "Recovery: %d WAL files, %d records replayed, %d torn-tail bytes cut,"
                + " %d corrupt regions, %d records dropped%n", rec.walFiles(), rec.recordsReplayed(), rec.tornTailBytes(),
                rec.corruptRegions(), rec.recordsDropped()));
        if (!s.scheme().isEmpty()) {
            b.append("Scheme:");
            for (Map.Entry<String, Double> e : new TreeMap<>(s.scheme()).entrySet()) {
                double v = e.getValue();
                b.append(' ').append(e.getKey()).append('=')
                        .append(v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v));
            }
            b.append('\n');
        }
        b.append("Last sequence: ").append(s.lastSequence()).append('\n');
        return b.toString();
    }

    private static double mb(long bytes) {
        return bytes / 1e6;
    }

    /** A ratio, or "-" where it is undefined (nothing flushed, nothing written, no tables, no gets). */
    private static String ratio(boolean defined, double v) {
        return defined ? String.format(Locale.ROOT, "%.2f", v) : "-";
    }
}
