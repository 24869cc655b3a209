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
 * run that fails later keeps what it measured. Counters and amplification are the workload's own (as on
 * its engine line); store_write_amp is the store's since it was opened; levels and space_amp are the
 * state after the workload. Per-level columns list levels from L0 separated by ';'. An undefined figure
 * (amplification with nothing on disk, tables/get without gets) is empty; a workload that did not run
 * has only its name and status.
 */
final class CsvReport implements Closeable {
    static final String HEADER = "workload,ops,seconds,ops_per_sec,mb_per_sec,p50_us,p99_us,p999_us,max_us,"
            + "found,not_found,write_amp,total_write_amp,space_amp,tables_per_get,stalls,stall_ms,flushes,"
            + "compactions,level_tables,level_bytes,store_write_amp,status";

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
        if (!r.ran()) {
            return r.workload().flagName() + ",".repeat(HEADER.split(",").length - 2) + "," + r.outcome().text();
        }
        EngineStats s = r.stats();
        EngineStats own = r.own();
        boolean lookups = r.workload().lookups();
        StringBuilder tables = new StringBuilder();
        StringBuilder bytes = new StringBuilder();
        for (EngineStats.Level l : s.levels().perLevel()) {
            tables.append(l.level() == 0 ? "" : ";").append(l.tables());
            bytes.append(l.level() == 0 ? "" : ";").append(l.bytes());
        }
        return String.format(Locale.ROOT, "%s,%d,%.6f,%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d,%s,%s,%s,%s",
                r.workload().flagName(), r.ops(), r.seconds(), r.opsPerSecond(), r.mbPerSecond(), r.latencyMicros(50),
                r.latencyMicros(99), r.latencyMicros(99.9), r.maxLatencyMicros(),
                lookups ? Long.toString(r.found()) : "", lookups ? Long.toString(r.notFound()) : "",
                Figures.csv(Figures.writeAmp(own.io()), 4), Figures.csv(Figures.totalWriteAmp(own.io()), 4),
                Figures.csv(Figures.spaceAmp(s.levels()), 4), Figures.csv(Figures.tablesPerGet(own.reads()), 4),
                own.background().stalls(), own.background().stallNanos() / 1_000_000, own.background().flushes(),
                own.background().compactions(), tables, bytes, Figures.csv(Figures.writeAmp(s.io()), 4),
                r.outcome().text());
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
