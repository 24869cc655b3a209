package io.bellows.engine.metamorphic;

import io.bellows.engine.Durability;
import java.util.ArrayList;
import java.util.List;

/**
 * One operation of a metamorphic op log. Each prints as one line that {@link #parse} reads back, so a
 * (minimized) failing log can be saved and replayed. Keys and values are short ASCII strings.
 */
sealed interface Op {
    /** A put, or a delete when {@code value} is null. */
    record Put(String key, String value, Durability durability) implements Op {
        @Override
        public String toString() {
            return (value == null ? "delete " + key : "put " + key + " " + value) + " " + durability;
        }
    }

    /** An atomic batch of puts and deletes. */
    record Batch(List<Put> writes, Durability durability) implements Op {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("batch ").append(durability);
            for (Put p : writes) {
                b.append(' ').append(p.key()).append('=').append(p.value() == null ? "-" : p.value());
            }
            return b.toString();
        }
    }

    /** A point read, at the latest state or at snapshot {@code snapshot} (-1 for none). */
    record Get(String key, int snapshot) implements Op {
        @Override
        public String toString() {
            return "get " + key + " " + snapshot;
        }
    }

    /**
     * Up to {@code limit} entries of a cursor over [from, to), at a snapshot or the latest state (-1);
     * descending from the last one if {@code reverse} ("rscan").
     */
    record Scan(String from, String to, int limit, int snapshot, boolean reverse) implements Op {
        @Override
        public String toString() {
            return (reverse ? "rscan " : "scan ") + from + " " + to + " " + limit + " " + snapshot;
        }
    }

    record TakeSnapshot(int id) implements Op {
        @Override
        public String toString() {
            return "snapshot " + id;
        }
    }

    record ReleaseSnapshot(int id) implements Op {
        @Override
        public String toString() {
            return "release " + id;
        }
    }

    record Flush() implements Op {
        @Override
        public String toString() {
            return "flush";
        }
    }

    /** compactRange over [from, to]; "*" is an open bound. */
    record CompactRange(String from, String to) implements Op {
        @Override
        public String toString() {
            return "compact " + from + " " + to;
        }
    }

    /** A clean close and open. */
    record Reopen() implements Op {
        @Override
        public String toString() {
            return "reopen";
        }
    }

    /**
     * Checks what a machine crash now would leave (on a copy of the files, keeping {@code tornSeed}'s
     * prefix of unsynced tails): every write durable by its durability is there, nothing else appears.
     * The run goes on, uncrashed.
     */
    record CrashCheck(long tornSeed) implements Op {
        @Override
        public String toString() {
            return "crashcheck " + tornSeed;
        }
    }

    /**
     * A machine crash the run continues from: every logged write is synced first and unlogged writes are
     * flushed, so what survives is the same in every configuration; then recovery opens the crashed files.
     */
    record CrashRestart() implements Op {
        @Override
        public String toString() {
            return "crashrestart";
        }
    }

    static Op parse(String line) {
        String[] t = line.trim().split(" ");
        switch (t[0]) {
            case "put":
                return new Put(t[1], t[2], Durability.valueOf(t[3]));
            case "delete":
                return new Put(t[1], null, Durability.valueOf(t[2]));
            case "batch": {
                List<Put> writes = new ArrayList<>();
                for (int i = 2; i < t.length; i++) {
                    String[] kv = t[i].split("=", 2);
                    writes.add(new Put(kv[0], kv[1].equals("-") ? null : kv[1], Durability.valueOf(t[1])));
                }
                return new Batch(writes, Durability.valueOf(t[1]));
            }
            case "get":
                return new Get(t[1], Integer.parseInt(t[2]));
            case "scan", "rscan":
                return new Scan(t[1], t[2], Integer.parseInt(t[3]), Integer.parseInt(t[4]), t[0].equals("rscan"));
            case "snapshot":
                return new TakeSnapshot(Integer.parseInt(t[1]));
            case "release":
                return new ReleaseSnapshot(Integer.parseInt(t[1]));
            case "flush":
                return new Flush();
            case "compact":
                return new CompactRange(t[1], t[2]);
            case "reopen":
                return new Reopen();
            case "crashcheck":
                return new CrashCheck(Long.parseLong(t[1]));
            case "crashrestart":
                return new CrashRestart();
            default:
                throw new IllegalArgumentException("not an op: " + line);
        }
    }
}
