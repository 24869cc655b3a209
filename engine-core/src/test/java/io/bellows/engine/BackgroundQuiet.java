package io.bellows.engine;

/** Waiting for a store's background work to settle, for tests that measure a store at rest. */
public final class BackgroundQuiet {
    private BackgroundQuiet() {}

    /** Waits until no compaction has run for 400 ms (the store is settled). */
    public static void await(Engine db) throws InterruptedException {
        long seen = -1;
        int stable = 0;
        while (stable < 4) {
            Thread.sleep(100);
            long n = db.stats().background().compactions();
            stable = n == seen ? stable + 1 : 0;
            seen = n;
        }
    }
}
