package io.bellows.engine;

/** Seeds for randomized tests: {@code -Dbellows.seed=N} replays a run; otherwise a fresh seed is printed. */
public final class TestSeeds {
    private TestSeeds() {}

    public static long seed(String test) {
        String fixed = System.getProperty("bellows.seed");
        long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime() ^ Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
        System.out.println(test + " seed=" + seed + " (replay with -Dbellows.seed=" + seed + ")");
        return seed;
    }
}
