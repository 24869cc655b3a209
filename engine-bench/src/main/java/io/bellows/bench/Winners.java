package io.bellows.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Compare mode's verdict: for each workload, the configuration that wins on throughput (highest ops/s),
 * tail latency (lowest p99), write amplification and space amplification (lowest). Only configurations
 * that ran the workload and have the figure compete; configurations that tie are all named; {@code -} when
 * none has it (nothing reached disk, or no configuration ran the workload).
 */
final class Winners {
    private static final String ROW = "%-16s %-8s %12s  %s%n";

    private Winners() {}

    static void print(PrintStream out, List<EngineRun> runs) {
        out.println();
        out.println("Best per workload (ops/s: highest; p99, w-amp, s-amp: lowest; -: no configuration has the figure)");
        out.printf(Locale.ROOT, ROW, "workload", "figure", "value", "best (ties: all)");
        out.println("-".repeat(71));
        int workloads = runs.get(0).results().size();
        for (int i = 0; i < workloads; i++) {
            String name = runs.get(0).results().get(i).workload().flagName();
            print(out, name, "ops/s", best(runs, i, WorkloadResult::opsPerSecond, true), 0);
            print(out, "", "p99 us", best(runs, i, r -> r.latencyMicros(99), false), 1);
            print(out, "", "w-amp", best(runs, i, r -> Figures.writeAmp(r.stats().io()), false), 2);
            print(out, "", "s-amp", best(runs, i, r -> Figures.spaceAmp(r.stats().levels()), false), 2);
        }
    }

    private static void print(PrintStream out, String workload, String figure, Best best, int decimals) {
        out.printf(Locale.ROOT, ROW, workload, figure, best == null ? "-" : Figures.fixed(best.value(), decimals),
                best == null ? "-" : best.engine());
    }

    /** A configuration and its winning figure. */
    record Best(String engine, double value) {}

    /** The best configuration on {@code figure} for workload {@code i}, or null when none has the figure. */
    static Best best(List<EngineRun> runs, int i, ToDoubleFunction<WorkloadResult> figure, boolean highest) {
        String engine = null;
        double best = Double.NaN;
        for (EngineRun run : runs) {
            WorkloadResult r = run.results().get(i);
            if (!r.ran()) {
                continue;
            }
            double v = figure.applyAsDouble(r);
            if (Double.isNaN(v)) {
                continue;
            }
            if (engine == null || (highest ? v > best : v < best)) {
                engine = run.engine();
                best = v;
            } else if (v == best) {
                engine += ", " + run.engine();
            }
        }
        return engine == null ? null : new Best(engine, best);
    }
}
