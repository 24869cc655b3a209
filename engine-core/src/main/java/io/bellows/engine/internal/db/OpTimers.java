package io.bellows.engine.internal.db;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Latency timers of the engine's calls in one registry ({@code bellows.op.latency}, tagged by op). The
 * engine times its calls only once metrics are bound: until then a call pays one volatile read.
 */
final class OpTimers {
    static final OpTimers[] NONE = new OpTimers[0];
    static final int GET = 0;
    static final int MULTI_GET = 1;
    static final int PUT = 2;
    static final int DELETE = 3;
    static final int WRITE = 4;
    static final int CURSOR = 5;
    private static final String[] OPS = {"get", "multiget", "put", "delete", "write", "cursor"};

    private final Timer[] timers = new Timer[OPS.length];

    OpTimers(MeterRegistry registry, Tags tags) {
        for (int i = 0; i < OPS.length; i++) {
            timers[i] = Timer.builder("bellows.op.latency").tags(tags.and("op", OPS[i]))
                    .description("latency of engine calls that returned normally (cursor: opening one)")
                    .register(registry);
        }
    }

    /** Records, in every registry of {@code all}, that op {@code op} started at {@code startNanos} returned now. */
    static void record(OpTimers[] all, int op, long startNanos) {
        long d = System.nanoTime() - startNanos;
        for (OpTimers t : all) {
            t.timers[op].record(d, TimeUnit.NANOSECONDS);
        }
    }
}
