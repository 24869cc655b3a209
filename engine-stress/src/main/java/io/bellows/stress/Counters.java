package io.bellows.stress;

/**
 * Write counters: {@code cycle << 32 | run << 27 | n}, n counting one thread's writes in one run.
 * A key has one writer per run, so its counters increase with every write in every run and cycle.
 */
final class Counters {
    static final int MAX_RUNS = 31;

    private Counters() {}

    static long base(int cycle, int run) {
        if (run < 0 || run > MAX_RUNS) {
            throw new IllegalArgumentException("run " + run + " out of 0.." + MAX_RUNS);
        }
        return (long) cycle << 32 | (long) run << Worker.COUNTER_BITS;
    }

    static int cycle(long counter) {
        return (int) (counter >>> 32);
    }

    static int run(long counter) {
        return (int) (counter >>> Worker.COUNTER_BITS) & MAX_RUNS;
    }

    static long n(long counter) {
        return counter & ((1L << Worker.COUNTER_BITS) - 1);
    }

    static String describe(long counter) {
        return "cycle " + cycle(counter) + " run " + run(counter) + " write " + n(counter);
    }
}
