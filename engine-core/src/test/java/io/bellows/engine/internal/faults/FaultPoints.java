package io.bellows.engine.internal.faults;

import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Kind;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** The fault points of a counted run, and a seeded sample of them that covers every kind of call. */
final class FaultPoints {
    /**
     * Calls that can report a full disk: those that write data or directory entries (close(2) and
     * fsync(2) report a write-back that found no space; the JDK's message is "No space left on device").
     */
    private static final Set<Op> CAN_BE_FULL = EnumSet.of(Op.CREATE, Op.APPEND, Op.FLUSH, Op.SYNC, Op.CLOSE, Op.RENAME,
            Op.MKDIR, Op.LOCK, Op.SYNC_DIR);

    private FaultPoints() {}

    /** Every call of the counting run, with each fault kind that applies to it. */
    static List<FaultPoint> enumerate(List<Call> calls) {
        Map<String, Integer> ordinals = new HashMap<>();
        List<FaultPoint> out = new ArrayList<>();
        for (Call c : calls) {
            String role = FaultPoint.role(c.thread());
            int ordinal = ordinals.merge(role + " " + c.op(), 1, Integer::sum) - 1;
            for (Kind kind : kinds(c.op())) {
                out.add(new FaultPoint(role, c.op(), ordinal, kind, c));
            }
        }
        return out;
    }

    static List<Kind> kinds(Op op) {
        List<Kind> out = new ArrayList<>();
        out.add(Kind.EIO);
        if (CAN_BE_FULL.contains(op)) {
            out.add(Kind.ENOSPC);
        }
        if (op == Op.APPEND) {
            out.add(Kind.TORN);
        }
        return out;
    }

    /**
     * {@code n} points drawn with {@code seed}: shuffled within each group of (role, operation, kind),
     * then taken from the groups in turn, so rare calls (a lock, a rename) are sampled as surely as the
     * thousands of appends.
     */
    static List<FaultPoint> sample(List<FaultPoint> all, int n, long seed) {
        Random rnd = new Random(seed);
        Map<String, List<FaultPoint>> groups = new LinkedHashMap<>();
        for (FaultPoint p : all) {
            groups.computeIfAbsent(p.role() + " " + p.op() + " " + p.kind(), g -> new ArrayList<>()).add(p);
        }
        List<List<FaultPoint>> queues = new ArrayList<>(groups.values());
        for (List<FaultPoint> q : queues) {
            Collections.shuffle(q, rnd);
        }
        Collections.shuffle(queues, rnd);
        List<FaultPoint> out = new ArrayList<>();
        for (int round = 0; out.size() < Math.min(n, all.size()); round++) {
            for (List<FaultPoint> q : queues) {
                if (round < q.size() && out.size() < n) {
                    out.add(q.get(round));
                }
            }
        }
        return out;
    }

    /** How many points of each (role, operation), for the report. */
    static Map<String, Integer> census(List<Call> calls) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Call c : calls) {
            out.merge(FaultPoint.role(c.thread()) + " " + c.op(), 1, Integer::sum);
        }
        return out;
    }
}
