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
 * write amplification ({@code ops-per-sec.png}, {@code latency-p99.png}, {@code write-amp.png}). A
 * workload an engine did not run has no line or bar, and the legend or title says why; a figure no
 * engine has (write amplification when nothing reached disk) draws no chart.
 */
final class Charts {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 560;
    /** Fewer samples than this draw a few dots rather than a line over time. */
    static final int MIN_POINTS = 20;

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
            written.add(bars(dir.resolve("ops-per-sec.png"), "Throughput", "ops/s", runs,
                    r -> r.ran() ? r.opsPerSecond() : Double.NaN));
            written.add(bars(dir.resolve("latency-p99.png"), "p99 latency", "microseconds", runs,
                    r -> r.ran() ? r.latencyMicros(99) : Double.NaN));
            // NB: with nothing flushed anywhere every bar would be missing: no chart rather than an empty one.
            if (anyDefined(runs, ComparisonReport::writeAmp)) {
                written.add(bars(dir.resolve("write-amp.png"), "Write amplification (since the store was created)",
                        "(flush + compaction) / flush", runs, ComparisonReport::writeAmp));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write charts into " + dir, e);
        }
        return written;
    }

    /**
     * The throughput chart of workload {@code i}, or null when no engine ran it for {@link #MIN_POINTS}
     * sample intervals ({@link Sampler} doubles the interval to keep long runs at a few hundred points).
     */
    private static Path throughput(Path dir, List<EngineRun> runs, int i) throws IOException {
        String name = runs.get(0).results().get(i).workload().flagName();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("Throughput over time: " + name)
                .xAxisTitle("seconds").yAxisTitle("ops/s").build();
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setXAxisDecimalPattern("#,###.#");
        boolean any = false;
        List<String> notRun = new ArrayList<>();
        for (EngineRun run : runs) {
            WorkloadResult r = run.results().get(i);
            if (!r.ran()) {
                notRun.add(run.engine() + ": " + r.outcome().text());
                continue;
            }
            double[] y = r.throughput();
            if (y.length < MIN_POINTS) {
                notRun.add(run.engine() + ": too short to chart");
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
        if (!notRun.isEmpty()) {
            chart.setTitle(chart.getTitle() + " (" + String.join("; ", notRun) + ")");
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
            List<String> notRun = new ArrayList<>();
            for (int i = 0; i < workloads; i++) {
                WorkloadResult r = run.results().get(i);
                String name = r.workload().flagName();
                x.add(workloads == distinctNames(run) ? name : (i + 1) + ":" + name);
                double v = figure.applyAsDouble(r);
                // NB: XChart leaves a null bar out; 0 would draw a figure nobody measured.
                y.add(Double.isNaN(v) ? null : v);
                if (!r.ran()) {
                    notRun.add(r.outcome().text() + ": " + name);
                }
            }
            chart.addSeries(notRun.isEmpty() ? run.engine() : run.engine() + " (" + String.join(", ", notRun) + ")",
                    x, y);
        }
        BitmapEncoder.saveBitmap(chart, path.toString(), BitmapEncoder.BitmapFormat.PNG);
        return path;
    }

    /** Whether the figure needs decimals (amplification) rather than thousands separators (ops/s). */
    private static boolean figureIsSmall(List<EngineRun> runs, ToDoubleFunction<WorkloadResult> figure) {
        return runs.stream().flatMap(r -> r.results().stream()).mapToDouble(figure).filter(v -> !Double.isNaN(v))
                .max().orElse(0) < 100;
    }

    private static boolean anyDefined(List<EngineRun> runs, ToDoubleFunction<WorkloadResult> figure) {
        return runs.stream().flatMap(r -> r.results().stream()).mapToDouble(figure).anyMatch(v -> !Double.isNaN(v));
    }

    private static long distinctNames(EngineRun run) {
        return run.results().stream().map(r -> r.workload()).distinct().count();
    }
}
