package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The results as CSV (--csv): a header, then one row per workload written as soon as it finishes, so a
 * run that fails later keeps what it measured. Per-level columns list levels from L0 separated by ';'.
 */
final class CsvReport implements Closeable {
    static final String HEADER = "workload,ops,seconds,ops_per_sec,mb_per_sec,p50_us,p99_us,p999_us,max_us,"
            + "found,not_found,write_amp,total_write_amp,space_amp,tables_per_get,stalls,stall_ms,flushes,"
            + "compactions,level_tables,level_bytes";

    private final BufferedWriter writer;

    private CsvReport(BufferedWriter writer) {
        this.writer = writer;
    }

    static CsvReport open(Path path) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            CsvReport csv = new CsvReport(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
            csv.writeLine(HEADER);
            return csv;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write --csv file " + path, e);
        }
    }

    void write(WorkloadResult r) {
        writeLine(row(r));
    }

    static String row(WorkloadResult r) {
        EngineStats s = r.stats();
        boolean lookups = r.workload().lookups();
        StringBuilder tables = new StringBuilder();
        StringBuilder bytes = new StringBuilder();
        for (EngineStats.Level l : s.levels().perLevel()) {
            tables.append(l.level() == 0 ? "" : ";").append(l.tables());
            bytes.append(l.level() == 0 ? "" : ";").append(l.bytes());
        }
        return String.format(Locale.ROOT, "%s,%d,%.6f,%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%s,%s,%.4f,%.4f,%.4f,%.4f,%d,%d,%d,%d,%s,%s",
                r.workload().flagName(), r.ops(), r.seconds(), r.opsPerSecond(), r.mbPerSecond(), r.latencyMicros(50),
                r.latencyMicros(99), r.latencyMicros(99.9), r.maxLatencyMicros(),
                lookups ? Long.toString(r.found()) : "", lookups ? Long.toString(r.notFound()) : "",
                s.io().writeAmplification(), s.io().totalWriteAmplification(), s.levels().spaceAmplification(),
                s.reads().tablesProbedPerGet(), s.background().stalls(), s.background().stallNanos() / 1_000_000,
                s.background().flushes(), s.background().compactions(), tables, bytes);
    }

    private void writeLine(String line) {
        try {
            writer.write(line);
            writer.newLine();
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the --csv file", e);
        }
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the --csv file", e);
        }
    }
}
