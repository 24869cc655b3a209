package io.bellows.stress;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.ReadOptions;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The check after a crash. For every key, with the state the previous check found as the starting
 * point and the cycle's {@link History}: the store holds the value (or absence) of the last write
 * acknowledged as SYNC or ASYNC, or of a write attempted after it, byte for byte, and nothing else
 * (an older value is a lost acknowledged write; a value no write made is garbage). Without such an
 * acknowledgement the starting state is allowed too. Groups hold exactly one batch's outcome (all its
 * puts present, all its deletes absent, no decoy). On ordered schemes a full cursor scan must list
 * exactly the keys the gets found, with the same values. NONE writes may survive or not.
 *
 * <p>Nothing more can be said about WAL order from outside: a thread waits for each write, so at the
 * kill it has at most one write in flight, and every earlier one was acknowledged and is checked.
 */
final class Verifier {
    /** What the check found: the keys' states (the next cycle's start) and counts for the report. */
    record Result(KeyStates states, int present, int beyondAck, int ackedFloors) {}

    private final Engine db;
    private final KeySpace ks;
    private final KeyStates start;
    private final History h;
    private final KeyStates now;
    private final long[] fingerprints;
    private int beyondAck;
    private int ackedFloors;

    private Verifier(Engine db, KeySpace ks, KeyStates start, History h) {
        this.db = db;
        this.ks = ks;
        this.start = start;
        this.h = h;
        this.now = new KeyStates(ks);
        this.fingerprints = new long[ks.singles() + ks.groups() * ks.maxMembers()];
        Arrays.fill(fingerprints, -1);
    }

    static Result verify(Engine db, KeySpace ks, boolean ordered, KeyStates start, History h) throws StressFailure {
        Verifier v = new Verifier(db, ks, start, h);
        for (int i = 0; i < ks.singles(); i++) {
            v.checkSlot(i);
        }
        for (int g = 0; g < ks.groups(); g++) {
            v.checkGroup(g);
        }
        v.checkMultiBatches();
        if (ordered) {
            v.checkScan();
        }
        return new Result(v.now, v.now.present(), v.beyondAck, v.ackedFloors);
    }

    /** Index of the last durable acknowledged write, or -1. */
    private static int floor(List<History.Op> ops) {
        for (int i = ops.size() - 1; i >= 0; i--) {
            if (ops.get(i).durable()) {
                return i;
            }
        }
        return -1;
    }

    private void checkSlot(int slot) throws StressFailure {
        byte[] key = KeySpace.single(slot);
        List<History.Op> ops = h.slot(slot);
        int floor = floor(ops);
        byte[] found = db.get(key);
        fingerprints[slot] = fingerprint(found);
        String problem = found == null ? null : Checker.foreign(ks, key, found);
        if (problem != null) {
            throw failure("value never written", KeySpace.name(key), slotExpected(slot, ops, floor), Checker.show(found),
                    ops, floor, start.describeSlot(slot));
        }
        ackedFloors += floor >= 0 ? 1 : 0;
        if (found == null) {
            long hi = floor < 0 && start.slotLength[slot] < 0 ? start.slotCounter[slot] : Long.MIN_VALUE;
            for (int i = Math.max(floor, 0); i < ops.size(); i++) {
                if (ops.get(i).isDelete()) {
                    hi = ops.get(i).counter();
                }
            }
            if (hi == Long.MIN_VALUE) {
                throw failure("lost acknowledged write", KeySpace.name(key), slotExpected(slot, ops, floor), "absent",
                        ops, floor, start.describeSlot(slot));
            }
            now.slotCounter[slot] = hi;
            beyondAck += floor >= 0 && hi > ops.get(floor).counter() ? 1 : 0;
            return;
        }
        Values.Parsed p = Values.parse(found);
        long c = p.counter();
        boolean ok = floor < 0 && start.slotLength[slot] >= 0 && c == start.slotCounter[slot]
                && Arrays.equals(found, start.slotValue(slot));
        for (int i = Math.max(floor, 0); i < ops.size() && !ok; i++) {
            History.Op op = ops.get(i);
            ok = op.counter() == c && !op.isDelete() && op.length() == p.length() && op.thread() == p.thread();
        }
        if (!ok) {
            boolean older = c < (floor >= 0 ? ops.get(floor).counter() : start.slotCounter[slot]);
            throw failure(older ? "lost acknowledged write (an older value is back)" : "value never written",
                    KeySpace.name(key), slotExpected(slot, ops, floor), Checker.show(found), ops, floor, start.describeSlot(slot));
        }
        now.slotCounter[slot] = c;
        now.slotLength[slot] = p.length();
        now.slotThread[slot] = p.thread();
        beyondAck += floor >= 0 && c > ops.get(floor).counter() ? 1 : 0;
    }

    private void checkGroup(int g) throws StressFailure {
        int members = ks.members(g);
        List<History.Op> ops = h.group(g);
        int floor = floor(ops);
        byte[][] found = new byte[members][];
        for (int m = 0; m < members; m++) {
            found[m] = db.get(KeySpace.member(g, m));
            fingerprints[ks.singles() + g * ks.maxMembers() + m] = fingerprint(found[m]);
        }
        Checker.GroupState s = Checker.groupState(g, members, found);
        String name = "group g:" + g + " (" + members + " members)";
        if (s.problem() != null) {
            throw failure("batch atomicity broken", name, groupExpected(g, ops, floor), s.problem(), ops, floor,
                    start.describeGroup(g));
        }
        ackedFloors += floor >= 0 ? 1 : 0;
        if (s.absent()) {
            long hi = floor < 0 && start.groupLength[g] < 0 ? start.groupCounter[g] : Long.MIN_VALUE;
            for (int i = Math.max(floor, 0); i < ops.size(); i++) {
                if (ops.get(i).op() == OpLog.BATCH_DELETE) {
                    hi = ops.get(i).counter();
                }
            }
            if (hi == Long.MIN_VALUE) {
                throw failure("lost acknowledged write", name, groupExpected(g, ops, floor), "every member absent", ops,
                        floor, start.describeGroup(g));
            }
            now.groupCounter[g] = hi;
            beyondAck += floor >= 0 && hi > ops.get(floor).counter() ? 1 : 0;
            return;
        }
        long c = s.counter();
        boolean ok = floor < 0 && start.groupLength[g] >= 0 && c == start.groupCounter[g]
                && s.length() == start.groupLength[g] && s.thread() == start.groupThread[g];
        for (int i = Math.max(floor, 0); i < ops.size() && !ok; i++) {
            History.Op op = ops.get(i);
            ok = op.counter() == c && op.op() == OpLog.BATCH && op.length() == s.length() && op.thread() == s.thread();
        }
        if (!ok) {
            boolean older = c < (floor >= 0 ? ops.get(floor).counter() : start.groupCounter[g]);
            throw failure(older ? "lost acknowledged write (an older batch is back)" : "value never written", name,
                    groupExpected(g, ops, floor), "batch " + Checker.hex(c) + " (" + Counters.describe(c) + ", thread "
                    + s.thread() + ", length " + s.length() + ")", ops, floor, start.describeGroup(g));
        }
        now.groupCounter[g] = c;
        now.groupLength[g] = s.length();
        now.groupThread[g] = s.thread();
        beyondAck += floor >= 0 && c > ops.get(floor).counter() ? 1 : 0;
    }

    /**
     * A batch over several groups is applied to all or none: once one group holds exactly its counter,
     * every other group of the batch holds it or a later write (for an absent group: its latest
     * candidate delete is later).
     */
    private void checkMultiBatches() throws StressFailure {
        for (History.MultiBatch b : h.multiBatches()) {
            int applied = -1;
            for (int g : b.groups()) {
                if (now.groupLength[g] >= 0 && now.groupCounter[g] == b.counter()) {
                    applied = g;
                }
            }
            if (applied < 0) {
                continue;
            }
            for (int g : b.groups()) {
                if (now.groupCounter[g] < b.counter()) {
                    StringBuilder all = new StringBuilder();
                    for (int x : b.groups()) {
                        all.append(all.length() == 0 ? "" : ", ").append("g:").append(x).append(' ')
                                .append(now.describeGroup(x));
                    }
                    throw new StressFailure("batch atomicity broken", "batch " + Checker.hex(b.counter()) + " ("
                            + Counters.describe(b.counter()) + ", thread " + b.thread() + ") over " + b.groups().length
                            + " groups", "every group holds the batch or a later write, since g:" + applied + " holds it",
                            "g:" + g + " holds " + now.describeGroup(g), "    groups: " + all + "\n");
                }
            }
        }
    }

    /** A full scan lists exactly the keys the gets found present, with the same values. */
    private void checkScan() throws StressFailure {
        int expected = 0;
        for (long f : fingerprints) {
            expected += f >= 0 ? 1 : 0;
        }
        int seen = 0;
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                byte[] key = c.key();
                byte[] v = c.value();
                String problem = Checker.foreign(ks, key, v);
                if (problem != null) {
                    throw new StressFailure("cursor returned a key or value never written", KeySpace.name(key),
                            "keys of the key space only", problem, "");
                }
                int idx = key[0] == KeySpace.SINGLE ? KeySpace.getInt(key, 1)
                        : ks.singles() + KeySpace.getInt(key, 1) * ks.maxMembers() + (key[5] & 0xFF);
                if (fingerprints[idx] != fingerprint(v)) {
                    throw new StressFailure("cursor and get disagree", KeySpace.name(key), "what get returned ("
                            + (fingerprints[idx] < 0 ? "absent" : "present") + ")", Checker.show(v), "");
                }
                seen++;
            }
        }
        if (seen != expected) {
            throw new StressFailure("cursor and get disagree", "whole store", expected + " keys present by get",
                    seen + " keys listed by a cursor", "");
        }
    }

    private static long fingerprint(byte[] v) {
        if (v == null) {
            return -1;
        }
        CRC32C crc = new CRC32C();
        crc.update(v);
        return (long) v.length << 32 | crc.getValue();
    }

    private String slotExpected(int slot, List<History.Op> ops, int floor) {
        return expected(floor >= 0 ? null : start.describeSlot(slot), ops, floor);
    }

    private String groupExpected(int g, List<History.Op> ops, int floor) {
        return expected(floor >= 0 ? null : start.describeGroup(g), ops, floor);
    }

    private static String expected(String start, List<History.Op> ops, int floor) {
        StringBuilder sb = new StringBuilder("one of: ");
        if (start != null) {
            sb.append("the state the last check found (").append(start).append(')');
        }
        for (int i = Math.max(floor, 0); i < ops.size(); i++) {
            sb.append(sb.length() > 8 ? "; " : "").append(ops.get(i).isDelete() ? "absent by " : "the value of ")
                    .append(ops.get(i));
        }
        return sb.toString();
    }

    private static StressFailure failure(String what, String key, String expected, String found, List<History.Op> ops,
            int floor, String startState) {
        StringBuilder sb = new StringBuilder("    at the start of the cycle: ").append(startState).append('\n');
        int from = Math.max(0, ops.size() - 12);
        if (from > 0) {
            sb.append("    (").append(from).append(" earlier writes)\n");
        }
        for (int i = from; i < ops.size(); i++) {
            sb.append("    ").append(i == floor ? "* " : "  ").append(ops.get(i)).append('\n');
        }
        if (floor >= 0) {
            sb.append("    (* the last write acknowledged as SYNC or ASYNC)\n");
        }
        return new StressFailure(what, key, expected, found, sb.toString());
    }
}
