package io.bellows.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of a run (XChart): for each workload, throughput over time with one line per engine
 * ({@code throughput-WORKLOAD.png}); and side-by-side bars per workload of ops/s, p99 latency and
 * write amplification ({@code ops-per-sec.png}, {@code latency-p99.png}, {@code write-amp.png}).
 */
final class Charts {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 560;

    private Charts() {}

    /** Writes every chart into {@code dir} and returns the files written. */
    static List<Path> write(Path dir, List<EngineRun> runs) {
        // NB: charts render off-screen; without this a JVM that sees a DISPLAY may try to reach it.
        System.setProperty("java.awt.headless", "true");
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            int workloads = runs.get(0).results().size();
            for (int i = 0; i < workloads; i++) {
                Path p = throughput(dir, runs, i);
                if (p != null) {
                    written.add(p);
                }
            }
            written.add(bars(dir.resolve("ops-per-sec.png"), "Throughput", "ops/s", runs, WorkloadResult::opsPerSecond));
            written.add(bars(dir.resolve("latency-p99.png"), "p99 latency", "microseconds", runs,
                    r -> r.latencyMicros(99)));
            written.add(bars(dir.resolve("write-amp.png"), "Write amplification (cumulative)", "(flush + compaction) / flush",
                    runs, r -> r.stats().io().writeAmplification()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write charts into " + dir, e);
        }
        return written;
    }

    /** The throughput chart of workload {@code i}, or null when no engine ran it long enough to sample. */
    private static Path throughput(Path dir, List<EngineRun> runs, int i) throws IOException {
        String name = runs.get(0).results().get(i).workload().flagName();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("Throughput over time: " + name)
                .xAxisTitle("seconds").yAxisTitle("ops/s").build();
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setXAxisDecimalPattern("#,###.#");
        boolean any = false;
        for (EngineRun run : runs) {
            WorkloadResult r = run.results().get(i);
            double[] y = r.throughput();
            if (y.length == 0) {
                continue;
            }
            double[] x = new double[y.length];
            for (int k = 0; k < y.length; k++) {
                x[k] = (k + 1) * r.sampleMillis() / 1000.0;
            }
            chart.addSeries(run.engine(), x, y).setMarker(SeriesMarkers.NONE);
            any = true;
        }
        if (!any) {
            return null;
        }
        // NB: the same workload may appear twice in a list; the index keeps the file names apart.
        Path path = dir.resolve(String.format(Locale.ROOT, "throughput-%02d-%s.png", i + 1, name));
        BitmapEncoder.saveBitmap(chart, path.toString(), BitmapEncoder.BitmapFormat.PNG);
        return path;
    }

    private static Path bars(Path path, String title, String yTitle, List<EngineRun> runs,
            ToDoubleFunction<WorkloadResult> figure) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("workload").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setYAxisDecimalPattern(figureIsSmall(runs, figure) ? "#,##0.##" : "#,###");
        int workloads = runs.get(0).results().size();
        for (EngineRun run : runs) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < workloads; i++) {
                WorkloadResult r = run.results().get(i);
                x.add(workloads == distinctNames(run) ? r.workload().flagName() : (i + 1) + ":" + r.workload().flagName());
                y.add(figure.applyAsDouble(r));
            }
            chart.addSeries(run.engine(), x, y);
        }
        BitmapEncoder.saveBitmap(chart, path.toString(), BitmapEncoder.BitmapFormat.PNG);
        return path;
    }

    /** Whether the figure needs decimals (amplification) rather than thousands separators (ops/s). */
    private static boolean figureIsSmall(List<EngineRun> runs, ToDoubleFunction<WorkloadResult> figure) {
        return runs.stream().flatMap(r -> r.results().stream()).mapToDouble(figure).max().orElse(0) < 100;
    }

    private static long distinctNames(EngineRun run) {
        return run.results().stream().map(r -> r.workload()).distinct().count();
    }
}
