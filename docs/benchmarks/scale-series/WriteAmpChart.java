import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Write amplification at rest (table bytes written per user byte) against store depth, one line per
 * scheme, from the scale series' summary CSV (scheme,factor,depth,wa_user; summarize.py --csv), each
 * point labelled with its scale factor. Runs on the bench jar's class path, which holds XChart:
 * java -cp engine-bench/target/bellows-bench.jar docs/benchmarks/scale-series/WriteAmpChart.java IN.csv OUT.png TITLE
 */
public final class WriteAmpChart {
    private WriteAmpChart() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (line.isBlank() || line.startsWith("scheme")) {
                continue;
            }
            String[] f = line.split(",");
            points.computeIfAbsent(f[0], k -> new ArrayList<>())
                    .add(new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3])});
        }
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title(args[2])
                .xAxisTitle("store depth: L0 plus the levels holding data at rest")
                .yAxisTitle("write-amp: (flush + compaction) table bytes / user bytes").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setXAxisDecimalPattern("0");
        for (Map.Entry<String, List<double[]>> e : points.entrySet()) {
            List<double[]> p = e.getValue();
            double[] x = new double[p.size()];
            double[] y = new double[p.size()];
            for (int i = 0; i < p.size(); i++) {
                x[i] = p.get(i)[1];
                y[i] = p.get(i)[2];
                chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "x%.0f", p.get(i)[0]),
                        x[i] + 0.12, y[i] + 0.12, false));
            }
            chart.addSeries(e.getKey(), x, y);
        }
        BitmapEncoder.saveBitmap(chart, args[1], BitmapEncoder.BitmapFormat.PNG);
    }
}
