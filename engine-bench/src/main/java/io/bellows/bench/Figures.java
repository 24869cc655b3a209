package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.util.Locale;

/**
 * Ratios the reports print, NaN when they are undefined rather than 0: an amplification of a store
 * that wrote nothing to disk is not "0.00", and a table printing 0.00 would read as a perfect score.
 * Reports print NaN as {@code -}, leave it empty in CSV and write null in JSON.
 */
final class Figures {
    private Figures() {}

    /** RocksDB's write amplification, (flush + compaction) / flush bytes; NaN when nothing was flushed. */
    static double writeAmp(EngineStats.Io io) {
        return io.flushBytesWritten() == 0 ? Double.NaN : io.writeAmplification();
    }

    /** WAL, flush and compaction bytes per user byte; NaN when nothing was written to disk. */
    static double totalWriteAmp(EngineStats.Io io) {
        long disk = io.walBytesWritten() + io.flushBytesWritten() + io.compactionBytesWritten();
        return io.userBytesWritten() == 0 || disk == 0 ? Double.NaN : io.totalWriteAmplification();
    }

    /** Table bytes written (flushes and compactions) per user byte; NaN when no table was written. */
    static double userWriteAmp(EngineStats.Io io) {
        long tables = io.flushBytesWritten() + io.compactionBytesWritten();
        return io.userBytesWritten() == 0 || tables == 0 ? Double.NaN : (double) tables / io.userBytesWritten();
    }

    /** Live table bytes / bytes of user data they hold; NaN when no table reports its data (or none exists). */
    static double spaceAmp(EngineStats.Levels levels) {
        return levels.userDataBytes() == 0 ? Double.NaN : levels.spaceAmplification();
    }

    /** RocksDB's estimate, live table bytes / bytes of the last non-empty level; NaN when there are no tables. */
    static double lastLevelSpaceAmp(EngineStats.Levels levels) {
        return levels.liveTableBytes() == 0 ? Double.NaN : levels.lastLevelSpaceAmplification();
    }

    /** Tables probed per get; NaN when there was no get. */
    static double tablesPerGet(EngineStats.Reads reads) {
        return reads.gets() == 0 ? Double.NaN : reads.tablesProbedPerGet();
    }

    /** Whether the store holds or ever wrote a table: false means every figure measured only its MemStore. */
    static boolean reachedDisk(EngineStats s) {
        return s.io().flushBytesWritten() > 0 || s.levels().liveTableBytes() > 0;
    }

    /** {@code v} with {@code decimals} decimals, or {@code -} for NaN. */
    static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** {@code a / b} as "1.25x", or {@code -} when either is undefined or b is 0. */
    static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
    }

    /** A CSV field: {@code v} with {@code decimals} decimals, or empty for NaN. */
    static String csv(double v, int decimals) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** A CSV field: {@code a / b}, or empty when either is undefined or b is 0. */
    static String csvRatio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "" : String.format(Locale.ROOT, "%.4f", a / b);
    }
}
