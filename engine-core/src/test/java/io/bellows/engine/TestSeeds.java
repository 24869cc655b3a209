package io.bellows.engine;

/**
 * Seeds for randomized tests, the only seed property of the build: {@code -Dbellows.seed=N} replays a
 * run (every randomized test then uses N); otherwise a fresh seed is printed at the start of each test.
 */
public final class TestSeeds {
    private TestSeeds() {}

    public static long seed(String test) {
        String fixed = System.getProperty("bellows.seed");
        long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime() ^ Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
        System.out.println(test + " seed=" + seed + " (replay with -Dbellows.seed=" + seed + ")");
        return seed;
    }
}
