package io.bellows.stress;

import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.MemoryLimitException;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread of the child: random puts, deletes, group batches, gets, cursor scans, snapshot reads,
 * flushes and range compactions on the keys it owns, each write logged to its {@link OpLog} before the
 * call (ATTEMPT) and after it returns (ACK). As the only writer of its keys it knows their current
 * values once it has read or written them, so every read it makes is checked exactly (read-your-writes,
 * snapshot isolation, batch atomicity while the engine runs); a wrong read is reported through
 * {@link Failure}. Counters are {@code base | n} with n counting this thread's writes, so they grow per
 * key across threads, runs and cycles.
 */
final class Worker implements Runnable {
    /** Receives the first wrong read or unexpected exception; the child reports it and exits. */
    interface Failure {
        void fail(String message, Throwable cause);
    }

    static final int COUNTER_BITS = 27;

    private final Engine db;
    private final KeySpace ks;
    private final Workload load;
    private final int thread;
    private final long base;
    private final OpLog log;
    private final Random r;
    private final Failure failure;
    private final int[] slots;
    private final int[] groups;
    private final State[] slotState;
    private final State[] groupState;
    private final AtomicLong ops = new AtomicLong();
    private volatile boolean stopped;
    private long seq;
    private Snapshot snapshot;
    private int[] snapshotSlots;
    private byte[][] snapshotValues;
    private int snapshotDue;

    /** A key's (or group's) known state: absent ({@code length < 0}) or the write with this counter. */
    private record State(long counter, int length, int thread) {
        static final State ABSENT = new State(-1, -1, 0);
    }

    Worker(Engine db, KeySpace ks, Workload load, int thread, long base, OpLog log, long seed, Failure failure) {
        this.db = db;
        this.ks = ks;
        this.load = load;
        this.thread = thread;
        this.base = base;
        this.log = log;
        this.r = new Random(seed);
        this.failure = failure;
        this.slots = owned(ks.singles(), thread, load.threads());
        this.groups = owned(ks.groups(), thread, load.threads());
        this.slotState = new State[slots.length];
        this.groupState = new State[groups.length];
    }

    private static int[] owned(int n, int thread, int threads) {
        int[] out = new int[(n - thread + threads - 1) / threads];
        for (int i = 0; i < out.length; i++) {
            out[i] = thread + i * threads;
        }
        return out;
    }

    /** Operations done so far (read by the child's progress line). */
    long ops() {
        return ops.get();
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        try {
            while (!stopped && seq < (1L << COUNTER_BITS) - 1) {
                step();
                ops.incrementAndGet();
            }
        } catch (Throwable t) {
            failure.fail("thread " + thread + ": " + t, t);
        }
    }

    private void step() throws IOException {
        if (load.flush() > 0 && r.nextDouble() < load.flush()) {
            db.flush();
        }
        if (load.compact() > 0 && r.nextDouble() < load.compact()) {
            compactRange();
        }
        if (snapshot != null && --snapshotDue <= 0) {
            checkSnapshot();
        }
        double x = r.nextDouble() * (load.put() + load.delete() + load.batch() + load.get() + load.scan() + load.snapshot());
        if ((x -= load.put()) < 0) {
            write(false);
        } else if ((x -= load.delete()) < 0) {
            write(true);
        } else if ((x -= load.batch()) < 0) {
            batch();
        } else if ((x -= load.get()) < 0) {
            if (r.nextBoolean()) {
                checkSlot(pick(slots.length));
            } else {
                checkGroup(pick(groups.length));
            }
        } else if ((x -= load.scan()) < 0) {
            scan();
        } else if (snapshot == null) {
            takeSnapshot();
        }
    }

    private int pick(int n) {
        return r.nextInt(Math.max(1, (int) Math.ceil(n * load.hotFraction())));
    }

    private long nextCounter() {
        return base | ++seq;
    }

    private void write(boolean delete) throws IOException {
        int i = pick(slots.length);
        int slot = slots[i];
        long counter = nextCounter();
        Durability d = load.durability(r);
        int len = delete ? 0 : load.valueLength(r);
        byte op = delete ? OpLog.DELETE : OpLog.PUT;
        byte[] key = KeySpace.single(slot);
        log.attempt(op, d, 0, slot, counter, len);
        try {
            if (delete) {
                db.delete(key, WriteOptions.of(d));
            } else {
                db.put(key, Values.make(Values.KIND_SINGLE, thread, slot, counter, len), WriteOptions.of(d));
            }
        } catch (MemoryLimitException refused) {
            // Refused before it was logged (it could never fit this open's MemStore): attempted, never acked.
            return;
        }
        log.ack(op, d, 0, slot, counter, len);
        slotState[i] = delete ? State.ABSENT : new State(counter, len, thread);
    }

    /**
     * One WriteBatch over one group, or (one in five) over 2 to 16 groups with one counter: a large
     * WAL record that a kill can cut anywhere, whose groups must all be applied or none.
     */
    private void batch() throws IOException {
        int n = groups.length > 1 && r.nextInt(5) == 0 ? 2 + r.nextInt(Math.min(15, groups.length - 1)) : 1;
        int[] chosen = distinctGroups(n);
        long counter = nextCounter();
        Durability d = load.durability(r);
        boolean deleteAll = n == 1 && r.nextInt(8) == 0;
        boolean decoys = !deleteAll && r.nextInt(3) == 0;
        int len = deleteAll ? 0 : load.valueLength(r);
        if (n > 1) {
            len = Math.min(len, Values.HEADER + 4096);
        }
        WriteBatch b = new WriteBatch();
        for (int i : chosen) {
            addGroup(b, groups[i], counter, deleteAll, decoys, len);
        }
        byte op = deleteAll ? OpLog.BATCH_DELETE : OpLog.BATCH;
        int flags = (decoys ? OpLog.FLAG_DECOYS : 0) | (n > 1 ? OpLog.FLAG_MULTI : 0);
        for (int i : chosen) {
            log.attempt(op, d, flags, groups[i], counter, len);
        }
        try {
            db.write(b, WriteOptions.of(d));
        } catch (MemoryLimitException refused) {
            // A batch of up to 16 groups can exceed what a small MemStore can ever hold (4 x memstoreSize):
            // the engine refuses it whole before logging it, so none of it is applied and nothing is acked.
            return;
        }
        for (int i : chosen) {
            log.ack(op, d, flags, groups[i], counter, len);
        }
        for (int i : chosen) {
            groupState[i] = deleteAll ? State.ABSENT : new State(counter, len, thread);
        }
    }

    private int[] distinctGroups(int n) {
        int[] chosen = new int[n];
        chosen[0] = pick(groups.length);
        for (int k = 1; k < n; k++) {
            int next;
            boolean taken;
            do {
                next = r.nextInt(groups.length);
                taken = false;
                for (int j = 0; j < k; j++) {
                    taken |= chosen[j] == next;
                }
            } while (taken);
            chosen[k] = next;
        }
        return chosen;
    }

    private void addGroup(WriteBatch b, int g, long counter, boolean deleteAll, boolean decoys, int len) {
        int members = ks.members(g);
        int start = r.nextInt(members);
        if (decoys) {
            for (int k = 0; k < members; k++) {
                int m = (start + k) % members;
                if (Values.decoy(counter, g, m)) {
                    b.put(KeySpace.member(g, m), Values.make(Values.KIND_DECOY, thread, KeySpace.memberId(g, m), counter, len));
                }
            }
        }
        for (int k = 0; k < members; k++) {
            int m = (start + k) % members;
            if (Values.deletes(counter, g, m, members, deleteAll)) {
                b.delete(KeySpace.member(g, m));
            } else {
                b.put(KeySpace.member(g, m), Values.make(Values.KIND_MEMBER, thread, KeySpace.memberId(g, m), counter, len));
            }
        }
    }

    private byte[] expectedSlot(int i) {
        State s = slotState[i];
        return s.length < 0 ? null : Values.make(Values.KIND_SINGLE, s.thread, slots[i], s.counter, s.length);
    }

    private byte[] expectedMember(int i, int m) {
        State s = groupState[i];
        int g = groups[i];
        if (s.length < 0 || Values.deletes(s.counter, g, m, ks.members(g), false)) {
            return null;
        }
        return Values.make(Values.KIND_MEMBER, s.thread, KeySpace.memberId(g, m), s.counter, s.length);
    }

    /** Reads a slot; the first read learns its state (checking only that the value is well formed). */
    private void checkSlot(int i) {
        byte[] key = KeySpace.single(slots[i]);
        byte[] v = db.get(key);
        if (slotState[i] == null) {
            slotState[i] = learnSingle(key, v);
            return;
        }
        expect(key, expectedSlot(i), v, "get");
    }

    private State learnSingle(byte[] key, byte[] v) {
        if (v == null) {
            return State.ABSENT;
        }
        Values.Parsed p = Values.parse(v);
        if (p == null || !Values.intact(v) || p.kind() != Values.KIND_SINGLE || p.keyId() != KeySpace.getInt(key, 1)) {
            failure.fail("get " + KeySpace.name(key) + " returned a value never written to it: " + Checker.show(v), null);
            return State.ABSENT;
        }
        return new State(p.counter(), p.length(), p.thread());
    }

    /** Reads every member of a group; the first read learns the group's state and checks it is one batch's. */
    private void checkGroup(int i) {
        int g = groups[i];
        int members = ks.members(g);
        byte[][] found = new byte[members][];
        for (int m = 0; m < members; m++) {
            found[m] = db.get(KeySpace.member(g, m));
        }
        if (groupState[i] == null) {
            Checker.GroupState s = Checker.groupState(g, members, found);
            if (s.problem() != null) {
                failure.fail("batch atomicity while running: " + s.problem(), null);
                return;
            }
            groupState[i] = s.absent() ? State.ABSENT : new State(s.counter(), s.length(), s.thread());
            return;
        }
        for (int m = 0; m < members; m++) {
            expect(KeySpace.member(g, m), expectedMember(i, m), found[m], "get");
        }
    }

    /**
     * Scans up to 64 keys from a random one: every key listed must be well formed, this thread's known
     * keys must read as known, and none of them that is present may be skipped.
     */
    private void scan() {
        boolean singles = r.nextInt(4) > 0;
        byte[] from = singles ? KeySpace.single(r.nextInt(ks.singles())) : KeySpace.member(r.nextInt(ks.groups()), 0);
        int limit = 1 + r.nextInt(64);
        long next = ordinal(from);
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seek(from); c.isValid() && limit > 0; c.next(), limit--) {
                byte[] key = c.key();
                byte[] v = c.value();
                String problem = Checker.foreign(ks, key, v);
                if (problem != null) {
                    failure.fail("cursor: " + problem, null);
                    return;
                }
                long at = ordinal(key);
                checkNoneSkipped(next, at);
                next = at + 1;
                checkOwned(key, v, "cursor");
            }
            if (limit > 0) {
                checkNoneSkipped(next, (long) ks.groups() * KeySpace.MAX_MEMBERS + ks.singles());
            }
        }
    }

    /** Position of a key in key order: group members first (by group, then member), then single keys. */
    private long ordinal(byte[] key) {
        int id = KeySpace.getInt(key, 1);
        return key[0] == KeySpace.MEMBER ? (long) id * KeySpace.MAX_MEMBERS + (key[5] & 0xFF)
                : (long) ks.groups() * KeySpace.MAX_MEMBERS + id;
    }

    /** Fails if a key this thread knows to be present lies in {@code [from, to)}, which a cursor passed over. */
    private void checkNoneSkipped(long from, long to) {
        long singles = (long) ks.groups() * KeySpace.MAX_MEMBERS;
        for (long o = from; o < to; o++) {
            byte[] key;
            byte[] expected;
            if (o >= singles) {
                int i = ownedIndex((int) (o - singles));
                if (i < 0 || slotState[i] == null) {
                    continue;
                }
                key = KeySpace.single(slots[i]);
                expected = expectedSlot(i);
            } else {
                int g = (int) (o / KeySpace.MAX_MEMBERS);
                int m = (int) (o % KeySpace.MAX_MEMBERS);
                int i = ownedIndex(g);
                if (m >= ks.members(g) || i < 0 || groupState[i] == null) {
                    continue;
                }
                key = KeySpace.member(g, m);
                expected = expectedMember(i, m);
            }
            if (expected != null) {
                failure.fail("cursor skipped " + KeySpace.name(key) + ", which its only writer (thread " + thread
                        + ") knows holds " + Checker.show(expected), null);
                return;
            }
        }
    }

    /** Compares a key read by a cursor with its known state, when this thread owns and knows it. */
    private void checkOwned(byte[] key, byte[] v, String how) {
        int id = KeySpace.getInt(key, 1);
        if (key[0] == KeySpace.SINGLE) {
            int i = ownedIndex(id);
            if (i >= 0 && slotState[i] != null) {
                expect(key, expectedSlot(i), v, how);
            }
        } else {
            int i = ownedIndex(id);
            if (i >= 0 && groupState[i] != null) {
                expect(key, expectedMember(i, key[5] & 0xFF), v, how);
            }
        }
    }

    /** Index of slot or group {@code id} in this thread's arrays, or -1 when another thread owns it. */
    private int ownedIndex(int id) {
        int t = load.threads();
        return id % t == thread ? id / t : -1;
    }

    private void takeSnapshot() {
        int n = Math.min(slots.length, 1 + r.nextInt(16));
        snapshotSlots = new int[n];
        snapshotValues = new byte[n][];
        for (int k = 0; k < n; k++) {
            int i = pick(slots.length);
            if (slotState[i] == null) {
                checkSlot(i);
            }
            snapshotSlots[k] = i;
            snapshotValues[k] = expectedSlot(i);
        }
        snapshot = db.snapshot();
        snapshotDue = 20 + r.nextInt(200);
    }

    private void checkSnapshot() {
        ReadOptions at = ReadOptions.at(snapshot);
        for (int k = 0; k < snapshotSlots.length; k++) {
            byte[] key = KeySpace.single(slots[snapshotSlots[k]]);
            expect(key, snapshotValues[k], db.get(key, at), "snapshot get (snapshot " + snapshot.sequence() + ")");
        }
        snapshot.close();
        snapshot = null;
    }

    private void compactRange() {
        if (r.nextBoolean()) {
            db.compactRange(null, null);
        } else {
            int lo = r.nextInt(ks.singles());
            db.compactRange(KeySpace.single(lo), KeySpace.single(Math.min(ks.singles() - 1, lo + r.nextInt(256))));
        }
    }

    private void expect(byte[] key, byte[] expected, byte[] found, String how) {
        if (!Arrays.equals(expected, found)) {
            failure.fail(how + " " + KeySpace.name(key) + " by its only writer (thread " + thread + "): expected "
                    + Checker.show(expected) + ", found " + Checker.show(found), null);
        }
    }
}
