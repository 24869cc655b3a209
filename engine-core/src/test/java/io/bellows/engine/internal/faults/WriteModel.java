package io.bellows.engine.internal.faults;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a store may hold for each key after writes some of which failed: every write of a key in order,
 * with how it ended. A write that returned normally is acknowledged; one that threw, or is still in
 * flight, may or may not have reached the log, so its value may surface, but nothing else may.
 *
 * <p>Values are strings; {@code null} is a delete (the key absent).
 *
 * <p>Thread safety: synchronized on this instance, so a copy can be taken from the thread a fault fires
 * on while the workload runs. A crash image taken while holding this monitor, then a {@link #copy()},
 * agree: a write is recorded (in flight) before its call is made, and acknowledged after it returned.
 */
final class WriteModel {
    /** How a write call ended. */
    enum Outcome {
        /** Returned normally with Durability.SYNC: survives a machine crash. */
        SYNC_ACK,
        /** Returned normally with Durability.ASYNC: survives a process crash. */
        ASYNC_ACK,
        /** Threw, or has not returned yet: may have happened or not. */
        FAILED,
        /**
         * What a crash in the workload left: one of the values the crash allowed, made durable by the
         * recovery that followed (it writes what it replayed to a synced table).
         */
        RECOVERED
    }

    /** What the store went through before it was reopened. */
    enum Crash {
        /** The process died (or closed): every byte handed to the OS is kept. */
        PROCESS,
        /** The machine died: only synced bytes and synced directory entries are kept. */
        MACHINE
    }

    /** One key's write (a set of values only after a crash); its outcome is set when the call returns. */
    private static final class Write {
        final Set<String> values;
        Outcome outcome = Outcome.FAILED;

        Write(Set<String> values) {
            this.values = values;
        }
    }

    /** The writes of one call in flight. */
    static final class Call {
        private final List<Write> writes = new ArrayList<>();
    }

    private final Map<String, List<Write>> history = new TreeMap<>();

    /** Records the writes of a call about to be made ({@code null} values delete): in flight until {@link #end}. */
    synchronized Call begin(List<Map.Entry<String, String>> entries) {
        Call call = new Call();
        for (Map.Entry<String, String> e : entries) {
            Set<String> value = new LinkedHashSet<>();
            value.add(e.getValue());
            Write w = new Write(value);
            history.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(w);
            call.writes.add(w);
        }
        return call;
    }

    synchronized void end(Call call, Outcome outcome) {
        for (Write w : call.writes) {
            w.outcome = outcome;
        }
    }

    /** A copy as of now, writes in flight counted as failed (they may or may not surface). */
    synchronized WriteModel copy() {
        WriteModel out = new WriteModel();
        for (Map.Entry<String, List<Write>> e : history.entrySet()) {
            List<Write> writes = new ArrayList<>();
            for (Write w : e.getValue()) {
                Write c = new Write(w.values);
                c.outcome = w.outcome;
                writes.add(c);
            }
            out.history.put(e.getKey(), writes);
        }
        return out;
    }

    /**
     * The workload's store went through {@code crash} and was recovered: from now on each key holds one
     * of the values that crash allowed, durably.
     */
    synchronized void crashed(Crash crash) {
        for (Map.Entry<String, List<Write>> e : history.entrySet()) {
            Write w = new Write(allowed(e.getKey(), crash));
            w.outcome = Outcome.RECOVERED;
            e.setValue(new ArrayList<>(List.of(w)));
        }
    }

    /**
     * The store recovered from the crash shows {@code value} for {@code key}: if that is one of the
     * values the crash allowed, it is now the only one (a later read must not show another of them).
     */
    synchronized void observedAfterCrash(String key, String value) {
        List<Write> writes = history.get(key);
        if (writes != null && writes.size() == 1 && writes.get(0).outcome == Outcome.RECOVERED
                && writes.get(0).values.contains(value)) {
            Set<String> one = new LinkedHashSet<>();
            one.add(value);
            Write w = new Write(one);
            w.outcome = Outcome.RECOVERED;
            writes.set(0, w);
        }
    }

    /** Every key ever written, in order. */
    synchronized Set<String> keys() {
        return new TreeSet<>(history.keySet());
    }

    /**
     * The values {@code key} may hold after {@code crash} ({@code null} in the set: it may be absent).
     * The last write the crash cannot undo fixes the value unless a later write surfaces; before it,
     * nothing else may. A process crash undoes no acknowledged write, a machine crash no SYNC one.
     */
    synchronized Set<String> allowed(String key, Crash crash) {
        List<Write> writes = history.getOrDefault(key, List.of());
        int last = -1;
        for (int i = writes.size() - 1; i >= 0 && last < 0; i--) {
            Outcome o = writes.get(i).outcome;
            if (o == Outcome.SYNC_ACK || o == Outcome.RECOVERED || (crash == Crash.PROCESS && o == Outcome.ASYNC_ACK)) {
                last = i;
            }
        }
        Set<String> out = new LinkedHashSet<>();
        if (last < 0) {
            out.add(null);
        }
        for (int i = Math.max(last, 0); i < writes.size(); i++) {
            Write w = writes.get(i);
            // After a process crash an acknowledged write later than `last` cannot be missing.
            if (i == last || crash == Crash.MACHINE || w.outcome == Outcome.FAILED) {
                out.addAll(w.values);
            }
        }
        return out;
    }

    /** Whether some write (or the key's initial absence) gave {@code key} this value. */
    synchronized boolean wasWritten(String key, String value) {
        if (value == null) {
            return true;
        }
        for (Write w : history.getOrDefault(key, List.of())) {
            if (w.values.contains(value)) {
                return true;
            }
        }
        return false;
    }

    /** The values the running engine may return for {@code key}: it has lost nothing yet. */
    Set<String> allowedLive(String key) {
        return allowed(key, Crash.PROCESS);
    }

    /** The key's last few writes and how they ended (for messages). */
    synchronized String describe(String key) {
        List<Write> writes = history.getOrDefault(key, List.of());
        StringBuilder b = new StringBuilder();
        int from = Math.max(0, writes.size() - 4);
        if (from > 0) {
            b.append("... ");
        }
        for (int i = from; i < writes.size(); i++) {
            Write w = writes.get(i);
            b.append(w.values.size() == 1 ? describeValue(w.values.iterator().next()) : w.values.size() + " values")
                    .append('/').append(w.outcome).append(' ');
        }
        return b.toString().trim();
    }

    private static String describeValue(String value) {
        return value == null ? "DELETE" : abbreviate(value);
    }

    static String abbreviate(String value) {
        if (value == null) {
            return "<absent>";
        }
        return value.length() <= 24 ? value : value.substring(0, 24) + "...";
    }
}
