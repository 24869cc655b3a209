package io.bellows.engine.internal.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shared budget's decisions, golden-test style: members report (memory, unflushed), and the test
 * states which member the budget must ask to flush, if any. A budget of 1 MiB: flush once unflushed
 * memory passes 896 KiB, or all memory reaches 1 MiB with at least 512 KiB unflushed; granule 16 KiB.
 */
class MemStoreBudgetTest {
    private static final long K = 1024;
    private final MemStoreBudget budget = new MemStoreBudget(1024 * K);
    /** Names of the members asked to flush, in order. */
    private final List<String> asked = new ArrayList<>();

    /**
     * A member whose engine, asked to flush, hands all its unflushed memory to a snapshot, or gives the
     * answer the test set.
     */
    private final class Engine implements MemStoreBudget.Flushable {
        final String name;
        final MemStoreBudget.Member member;
        volatile MemStoreBudget.Answer answer = MemStoreBudget.Answer.SWITCHED;
        long memory;
        long unflushed;

        Engine(String name) {
            this.name = name;
            this.member = budget.join(this);
        }

        void holds(long memoryBytes, long unflushedBytes) {
            memory = memoryBytes;
            unflushed = unflushedBytes;
            member.report(memory, unflushed);
        }

        @Override
        public MemStoreBudget.Answer flushForBudget() {
            synchronized (asked) {
                asked.add(name);
            }
            if (answer == MemStoreBudget.Answer.SWITCHED) {
                unflushed = 0;
                member.report(memory, unflushed);
            }
            return answer;
        }
    }

    private void awaitPasses(long requested) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (budget.flushesRequested() < requested && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(requested, budget.flushesRequested(), "flushes requested: " + asked);
        Thread.sleep(20); // a pass that went on asking would show here
    }

    @Test
    void underBudgetNothingFlushes() {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.holds(600 * K, 600 * K);
        b.holds(200 * K, 200 * K);
        assertEquals(800 * K, budget.usedBytes());
        assertFalse(budget.overBudget());
        assertEquals(0, budget.flushesRequested());
    }

    @Test
    void unflushedPastSevenEighthsFlushesTheLargestWhoeverWrote() throws InterruptedException {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.holds(600 * K, 600 * K);
        b.holds(400 * K, 400 * K); // 1000 KiB unflushed > 896: b wrote, a holds more
        awaitPasses(1);
        assertEquals(List.of("a"), asked);
        assertEquals(1000 * K, budget.usedBytes(), "a's snapshot still counts until its flush ends");
        assertEquals(400 * K, budget.unflushedBytes());
        a.holds(0, 0); // a's flush ended
        assertEquals(400 * K, budget.usedBytes());
    }

    @Test
    void atTheBudgetWithHalfUnflushedFlushes() throws InterruptedException {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.holds(600 * K, 0); // a snapshot being flushed
        b.holds(500 * K, 500 * K); // 1100 KiB in all, but under half unflushed: wait for a's flush
        assertFalse(budget.overBudget());
        b.holds(540 * K, 540 * K); // now at least half is unflushed
        awaitPasses(1);
        assertEquals(List.of("b"), asked);
    }

    @Test
    void aMemberStillFlushingIsPassedOver() throws InterruptedException {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.holds(900 * K, 500 * K); // 400 KiB of snapshot: a cannot switch again until it is flushed
        b.holds(450 * K, 450 * K); // 950 KiB unflushed
        awaitPasses(1);
        assertEquals(List.of("b"), asked, "a holds more unflushed memory, but its last flush is still running");
        assertEquals(500 * K, budget.unflushedBytes());
    }

    @Test
    void aRefusingMemberIsPassedOverInTheSamePass() throws InterruptedException {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.answer = MemStoreBudget.Answer.REFUSED; // e.g. its writes are stopped
        a.holds(600 * K, 600 * K);
        b.holds(400 * K, 400 * K);
        awaitPasses(2);
        assertEquals(List.of("a", "b"), asked);
    }

    /**
     * An engine whose writers are queued switches when its running group ends: the pass ends there, and
     * until that engine reports, later passes (started by other engines' reports) ask the others, so
     * an engine whose writers are stalled holds up no one.
     */
    @Test
    void aMemberLeftToItsNextWriteGroupIsLeftOutUntilItReports() throws InterruptedException {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        Engine c = new Engine("c");
        a.answer = MemStoreBudget.Answer.LATER;
        a.holds(600 * K, 600 * K);
        b.holds(100 * K, 100 * K);
        c.holds(250 * K, 250 * K); // 950 KiB unflushed
        awaitPasses(1);
        assertEquals(List.of("a"), asked, "b and c wait for a's switch");
        b.holds(150 * K, 150 * K); // still over: a has not reported, so c (then b) is asked
        awaitPasses(2);
        assertEquals(List.of("a", "c"), asked);
        a.answer = MemStoreBudget.Answer.SWITCHED;
        a.holds(650 * K, 650 * K); // a reported without switching (say it was refused): it may be asked again
        awaitPasses(3);
        assertEquals(List.of("a", "c", "a"), asked);
    }

    @Test
    void passesGoOnUntilTheBudgetIsMet() throws InterruptedException {
        List<Engine> engines = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            engines.add(new Engine("e" + i));
        }
        // 700 KiB unflushed, under the trigger; e4's 500 KiB passes it: flushing e4 leaves 700 KiB of
        // 1200 (at the budget with over half unflushed), flushing e3 then leaves 450 KiB: met.
        for (int i = 0; i < 4; i++) {
            engines.get(i).holds((100 + 50 * i) * K, (100 + 50 * i) * K);
        }
        assertEquals(0, budget.flushesRequested());
        engines.get(4).holds(500 * K, 500 * K);
        awaitPasses(2);
        assertEquals(List.of("e4", "e3"), asked);
    }

    @Test
    void smallChangesAreNotPassedOnButEmptyingIs() {
        Engine a = new Engine("a");
        a.holds(10 * K, 10 * K);
        assertEquals(0, budget.usedBytes(), "under the 16 KiB granule");
        a.holds(40 * K, 40 * K);
        assertEquals(40 * K, budget.usedBytes());
        a.holds(35 * K, 35 * K);
        assertEquals(40 * K, budget.usedBytes());
        a.holds(0, 0);
        assertEquals(0, budget.usedBytes(), "an emptied MemStore is always reported");
    }

    @Test
    void leavingTakesBackWhatWasReported() {
        Engine a = new Engine("a");
        Engine b = new Engine("b");
        a.holds(300 * K, 200 * K);
        b.holds(100 * K, 100 * K);
        a.member.close();
        assertEquals(100 * K, budget.usedBytes());
        assertEquals(100 * K, budget.unflushedBytes());
        a.holds(500 * K, 500 * K);
        assertEquals(100 * K, budget.usedBytes(), "a closed member reports nothing");
        assertTrue(budget.granule() == 16 * K);
    }
}
