package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The filter cache's CLOCK: its byte bound, what it admits, and what it keeps. */
class FilterPageCacheTest {
    private static final int PAGE = 4096;
    private static final long PER_RUN = PAGE + FilterPageCache.OVERHEAD;

    /** A run of one page holding no box (the cache does not look inside). */
    private static ClusterRun run(int bytes) {
        return ClusterRun.of(new byte[bytes]);
    }

    @Test
    void aBudgetOfZeroKeepsNothing() {
        FilterPageCache c = new FilterPageCache(0);
        c.put(1, 0, run(PAGE));
        assertNull(c.get(1, 0));
    }

    @Test
    void aRunLargerThanTheBudgetIsNotKept() {
        FilterPageCache c = new FilterPageCache(PAGE);
        c.put(1, 0, run(PAGE));
        assertNull(c.get(1, 0));
        assertEquals(0, c.weight());
    }

    /** A cache holding {@code n} one-page runs (tables 0 to n - 1), each read since it was put. */
    private static FilterPageCache fullOfReadRuns(int n) {
        FilterPageCache c = new FilterPageCache(n * PER_RUN);
        for (int t = 0; t < n; t++) {
            c.put(t, 0, run(PAGE));
            assertNotNull(c.get(t, 0));
        }
        return c;
    }

    /** Caffeine refused such runs once full: a run put into a full cache must be there for the next get. */
    @Test
    void aRunPutIntoAFullCacheIsAdmitted() {
        FilterPageCache c = new FilterPageCache(10 * PER_RUN);
        for (int t = 0; t < 1000; t++) {
            ClusterRun page = run(PAGE);
            c.put(t, 0, page);
            assertSame(page, c.get(t, 0), "run of table " + t);
            assertTrue(c.weight() <= 10 * PER_RUN, "weight " + c.weight());
        }
        assertEquals(10, c.size());
    }

    /**
     * A compaction writes a table's runs through one after another, with no get between them, into a
     * cache whose runs were all read: every one of them must stay (each is passed over once by the hand
     * before it can go), and none may be the victim of its own put.
     */
    @Test
    void runsPutBackToBackIntoACacheOfReadRunsAllStay() {
        FilterPageCache c = fullOfReadRuns(8);
        for (int r = 0; r < 8; r++) {
            c.put(100, r, run(PAGE));
            assertTrue(c.contains(100, r), "run " + r + " right after its put");
        }
        for (int r = 0; r < 8; r++) {
            assertTrue(c.contains(100, r), "run " + r + " of the table written through");
        }
        assertEquals(8, c.size());
    }

    /** A run larger than the one it evicts first must not go on to evict itself. */
    @Test
    void aLargerRunPutIntoAFullCacheStays() {
        FilterPageCache c = fullOfReadRuns(8);
        c.put(100, 0, run(2 * PAGE));
        assertTrue(c.contains(100, 0), "the two-page run");
        assertEquals(7, c.size(), "two one-page runs made room for it");
        assertTrue(c.weight() <= 8 * PER_RUN, "weight " + c.weight());
    }

    @Test
    void aRunNotReadSinceTheHandPassedGoesFirst() {
        FilterPageCache c = new FilterPageCache(8 * PER_RUN);
        for (int t = 0; t < 8; t++) {
            c.put(t, 0, run(PAGE));
        }
        // The ninth put turns the hand over all eight, clearing the bits they were put with, and drops one.
        c.put(8, 0, run(PAGE));
        assertEquals(8, c.size());
        int gone = -1;
        for (int t = 0; t < 8; t++) {
            if (!c.contains(t, 0)) {
                gone = t;
            }
        }
        assertTrue(gone >= 0, "one of the first eight runs was dropped");
        // Every run is read again but one (run 8 still has the bit it was put with).
        int unread = gone == 1 ? 2 : 1;
        for (int t = 0; t < 8; t++) {
            if (t != gone && t != unread) {
                assertNotNull(c.get(t, 0));
            }
        }
        c.put(9, 0, run(PAGE));
        assertFalse(c.contains(unread, 0), "the one run not read since the hand passed went");
        for (int t = 0; t <= 9; t++) {
            if (t != gone && t != unread) {
                assertTrue(c.contains(t, 0), "run " + t);
            }
        }
    }

    @Test
    void aRunPutAgainReplacesTheOldOneAndItsWeight() {
        FilterPageCache c = new FilterPageCache(4 * PER_RUN);
        c.put(1, 2, run(PAGE));
        ClusterRun second = run(PAGE / 2);
        c.put(1, 2, second);
        assertSame(second, c.get(1, 2));
        assertEquals(1, c.size());
        assertEquals(PAGE / 2 + FilterPageCache.OVERHEAD, c.weight());
        assertNull(c.get(1, 3), "runs are keyed by table and run");
        assertNull(c.get(2, 2), "runs are keyed by table and run");
    }

    /** Gets race puts and evictions: every run returned is the one put under its key, and the bound holds. */
    @Test
    void concurrentGetsAndPutsSeeOnlyTheirOwnRuns() throws InterruptedException {
        long seed = TestSeeds.seed("FilterPageCacheTest");
        FilterPageCache c = new FilterPageCache(64 * PER_RUN);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            long threadSeed = seed + i;
            threads[i] = new Thread(() -> {
                Random rnd = new Random(threadSeed);
                try {
                    for (int op = 0; op < 50_000; op++) {
                        long table = rnd.nextInt(256);
                        int run = rnd.nextInt(4);
                        ClusterRun got = c.get(table, run);
                        if (got == null) {
                            byte[] page = new byte[PAGE];
                            // A run without boxes, labelled by its key past its header.
                            page[4] = (byte) table;
                            page[5] = (byte) run;
                            c.put(table, run, ClusterRun.of(page));
                        } else if (got.page()[4] != (byte) table || got.page()[5] != (byte) run) {
                            throw new AssertionError("run (" + table + ", " + run + ") returned another's page (seed "
                                    + seed + ")");
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed, failure.get());
        }
        assertTrue(c.weight() <= 64 * PER_RUN, "weight " + c.weight());
        assertEquals(64, c.size());
    }
}
