package io.bellows.engine.internal.faults;

import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Kind;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.util.regex.Pattern;

/**
 * One call to fail: the {@code ordinal}-th (from 0) {@code op} call made by the threads of one role
 * (the workload thread, the flush thread, a compaction thread, the scheduler), failed as {@code kind}.
 * Counting per role and operation keeps the point on the same call when background threads interleave
 * differently from one run to the next. {@code expected} is that call in the counting run.
 */
record FaultPoint(String role, Op op, int ordinal, Kind kind, Call expected) {
    /** The role of a thread: its name without the pool's "-N" suffix. */
    static String role(String threadName) {
        return threadName.replaceFirst("-\\d+$", "");
    }

    /** Fails this call and the {@code times - 1} calls of the same role and operation after it. */
    Fault fault(int times) {
        return Fault.on(op).threadMatching(Pattern.quote(role) + "(-\\d+)?").after(ordinal).times(times).error(kind);
    }

    /** The arguments that select this point alone: {@code -Dbellows.faults.point=...}. */
    String id() {
        return role + ":" + op + ":" + ordinal + ":" + kind;
    }

    static FaultPoint parse(String id, Call expected) {
        String[] p = id.split(":");
        if (p.length != 4) {
            throw new IllegalArgumentException("a fault point is role:OP:ordinal:KIND, not " + id);
        }
        return new FaultPoint(p[0], Op.valueOf(p[1]), Integer.parseInt(p[2]), Kind.valueOf(p[3]), expected);
    }

    @Override
    public String toString() {
        return kind + " on " + op + " #" + ordinal + " of " + role + " (" + (expected == null ? "?" : expected.file()) + ")";
    }
}
