package io.bellows.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar redrawn in place with carriage returns: workload, bar, percent, current
 * rate and time left. Hand-written rather than a library because it needs nothing a terminal
 * library offers (no width detection, no colours, no multi-line layout), and it runs in child JVMs
 * whose stderr is the parent's terminal.
 */
final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintStream err;
    private int lastLength;

    ProgressBar(PrintStream err) {
        this.err = err;
    }

    /** Draws {@code done} of {@code total} operations at {@code opsPerSecond}. */
    void draw(String label, long done, long total, double opsPerSecond) {
        double fraction = total <= 0 ? 0 : Math.min(1.0, (double) done / total);
        int filled = (int) (fraction * WIDTH);
        String eta = opsPerSecond > 0 ? formatSeconds((total - done) / opsPerSecond) : "?";
        String line = String.format(Locale.ROOT, "%-16s [%s%s] %3d%% %,12.0f ops/s  ETA %s", label,
                "#".repeat(filled), ".".repeat(WIDTH - filled), (int) (fraction * 100), opsPerSecond, eta);
        err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
        err.flush();
        lastLength = line.length();
    }

    /** Erases the bar so the next report line starts clean. */
    void clear() {
        if (lastLength > 0) {
            err.print("\r" + " ".repeat(lastLength) + "\r");
            err.flush();
            lastLength = 0;
        }
    }

    static String formatSeconds(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }
}
