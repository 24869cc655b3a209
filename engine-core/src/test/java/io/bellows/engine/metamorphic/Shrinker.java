package io.bellows.engine.metamorphic;

import io.bellows.engine.EngineOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Minimizes a failing op log (delta debugging): drops the ops after the divergence, then chunks of ever
 * smaller size, keeping each removal after which the log still diverges. Bounded in runs and time, so a
 * failure is reported within about a minute even when every run is slow.
 */
final class Shrinker {
    private static final int MAX_RUNS = 400;
    private static final long MAX_NANOS = 60_000_000_000L;

    private Shrinker() {}

    static List<Op> shrink(List<Op> ops, EngineOptions options, OpRunner.Divergence first) {
        List<Op> current = new ArrayList<>(ops.subList(0, first.op + 1));
        long deadline = System.nanoTime() + MAX_NANOS;
        int runs = 0;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1; chunk /= 2) {
            for (int start = 0; start < current.size() && runs < MAX_RUNS && System.nanoTime() < deadline; ) {
                List<Op> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                runs++;
                Integer at = divergence(candidate, options);
                if (at != null) {
                    current = new ArrayList<>(candidate.subList(0, at + 1));
                } else {
                    start += chunk;
                }
            }
        }
        return current;
    }

    /** The op at which {@code ops} diverges, or null if it runs clean. */
    private static Integer divergence(List<Op> ops, EngineOptions options) {
        try {
            new OpRunner(options).run(ops);
            return null;
        } catch (OpRunner.Divergence d) {
            return d.op;
        }
    }
}
