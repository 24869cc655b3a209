package io.bellows.engine.internal.memstore;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MemStore memory budget shared by the engines of a process (the public {@code WriteBufferManager},
 * RocksDB's class of that name): each engine's MemStore reports the memory it holds, and when the sum
 * is too high the member holding the most unflushed memory is asked to flush, whichever engine wrote
 * last. "Too high" is RocksDB's rule: unflushed memory above 7/8 of the budget, or all memory (snapshots
 * being flushed included) at the budget with at least half of it unflushed, so that flushes already
 * under way are not answered with more small ones.
 *
 * <p>Members report at their own pace (after write groups and flushes), and only changes of at least
 * {@link #granule()} reach the shared counters, which bounds their traffic to one update per granule
 * written per engine; the sums are then off by less than a granule per member. Flushes are requested
 * from a thread of the budget's own, never from a writer holding its engine's lock, so two engines never
 * wait on each other's locks; a request never waits for an engine's writers either (a stalled engine
 * must not hold up the budget of the others). The thread ends when idle.
 */
public final class MemStoreBudget {
    private static final Logger LOG = LoggerFactory.getLogger(MemStoreBudget.class);
    /** Largest granule: with it a hundred engines misreport a budget by at most 6.4 MiB. */
    private static final long MAX_GRANULE = 64 << 10;
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** What the budget asks of a member's engine. */
    public interface Flushable {
        /**
         * Switches the engine's MemStore to a snapshot scheduled for flushing, if it holds data, no flush
         * is pending and the engine's write pressure allows it: at once if no writer is queued, else when
         * the running write group ends; reports either way. Waits neither for the flush nor for the
         * engine's writers.
         */
        Answer flushForBudget();
    }

    /** What became of a request. */
    public enum Answer {
        /** Switched: the engine has reported its smaller unflushed memory. */
        SWITCHED,
        /** Left to the leader of the engine's running write group, which switches when it ends and reports. */
        LATER,
        /** Nothing to switch now: empty, a flush pending, writes stopped, or closing. */
        REFUSED
    }

    private final long limit;
    private final long granule;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong unflushed = new AtomicLong();
    private final AtomicLong flushesRequested = new AtomicLong();
    private final Set<Member> members = ConcurrentHashMap.newKeySet();
    /** Whether a pass of {@link #flushLargest} is queued or running. */
    private final AtomicBoolean passRunning = new AtomicBoolean();
    /** Set by a report over budget: the running pass looks again when it ends, so no report is lost. */
    private final AtomicBoolean rerun = new AtomicBoolean();
    private final ThreadPoolExecutor flusher;

    public MemStoreBudget(long limitBytes) {
        if (limitBytes < 1) {
            throw new IllegalArgumentException("MemStore budget must be positive, got " + limitBytes);
        }
        this.limit = limitBytes;
        this.granule = Math.max(1, Math.min(MAX_GRANULE, limitBytes / 64));
        this.flusher = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "bellows-memstore-budget-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public long limitBytes() {
        return limit;
    }

    /** Memory the members reported, snapshots being flushed included. */
    public long usedBytes() {
        return used.get();
    }

    /** Memory the members reported that a flush has not yet taken. */
    public long unflushedBytes() {
        return unflushed.get();
    }

    /** Flushes this budget has asked its members for. */
    public long flushesRequested() {
        return flushesRequested.get();
    }

    /** Smallest change of a member's memory that is passed on to the sums. */
    public long granule() {
        return granule;
    }

    /** Adds an engine, holding nothing yet; it reports with {@link Member#report}. */
    public Member join(Flushable engine) {
        Member m = new Member(engine);
        members.add(m);
        return m;
    }

    /** Whether RocksDB's rule asks for a flush now. */
    boolean overBudget() {
        long u = unflushed.get();
        return u > limit - limit / 8 || used.get() >= limit && u >= limit / 2;
    }

    private void maybeFlush() {
        if (!overBudget()) {
            return;
        }
        rerun.set(true);
        if (passRunning.compareAndSet(false, true)) {
            flusher.execute(this::flushLargest);
        }
    }

    /** Passes until one ends with no report over budget having come in while it ran. */
    private void flushLargest() {
        while (true) {
            rerun.set(false);
            try {
                pass();
            } finally {
                passRunning.set(false);
            }
            if (!rerun.get() || !overBudget() || !passRunning.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /**
     * Asks members to flush, the one holding the most unflushed memory first, until the budget is met, no
     * member is left to ask, or one leaves its switch to its running write group. A member whose last flush
     * is still under way is passed over (its completion reports, which starts a new pass if still
     * needed), and so is one that refused.
     */
    private void pass() {
        Set<Member> tried = new HashSet<>();
        while (overBudget()) {
            Member victim = null;
            for (Member m : members) {
                if (!tried.contains(m) && !m.deferred && !m.flushPending() && m.unflushed() > 0
                        && (victim == null || m.unflushed() > victim.unflushed())) {
                    victim = m;
                }
            }
            if (victim == null) {
                return;
            }
            tried.add(victim);
            flushesRequested.incrementAndGet();
            Answer a;
            try {
                a = victim.engine.flushForBudget();
            } catch (RuntimeException e) {
                // A failing engine: try the others.
                LOG.debug("a flush asked for by the MemStore budget failed", e);
                a = Answer.REFUSED;
            }
            if (a == Answer.LATER) {
                // Its running write group switches when it ends and reports, which starts a pass if still
                // needed; until it reports, passes leave it out, so an engine whose writers are stalled
                // holds up no one.
                victim.deferred = true;
                return;
            }
        }
    }

    /** One engine's share; its methods are safe to call from any thread. */
    public final class Member implements AutoCloseable {
        private final Flushable engine;
        /** Asked to switch when its running write group ends, and not heard from since. */
        private volatile boolean deferred;
        private long reportedUsed;
        private long reportedUnflushed;
        private boolean closed;

        private Member(Flushable engine) {
            this.engine = engine;
        }

        /**
         * The memory the engine's MemStore holds now, and the part of it not yet handed to a flush;
         * may ask a member (this one or another) to flush.
         */
        public void report(long memoryBytes, long unflushedBytes) {
            long du;
            long dm;
            synchronized (this) {
                if (closed) {
                    return;
                }
                du = memoryBytes - reportedUsed;
                dm = unflushedBytes - reportedUnflushed;
                boolean emptied = memoryBytes == 0 && reportedUsed != 0 || unflushedBytes == 0 && reportedUnflushed != 0;
                if (!emptied && Math.abs(du) < granule && Math.abs(dm) < granule) {
                    return;
                }
                reportedUsed = memoryBytes;
                reportedUnflushed = unflushedBytes;
                deferred = false;
            }
            used.addAndGet(du);
            unflushed.addAndGet(dm);
            maybeFlush();
        }

        synchronized long unflushed() {
            return reportedUnflushed;
        }

        /** Whether the engine's last reported memory includes a snapshot still being flushed. */
        synchronized boolean flushPending() {
            return reportedUsed - reportedUnflushed >= granule;
        }

        /** Leaves the budget, taking back what the engine reported. */
        @Override
        public void close() {
            long du;
            long dm;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                du = reportedUsed;
                dm = reportedUnflushed;
            }
            members.remove(this);
            used.addAndGet(-du);
            unflushed.addAndGet(-dm);
        }
    }
}
