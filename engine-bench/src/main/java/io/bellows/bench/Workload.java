package io.bellows.bench;

import java.util.ArrayList;
import java.util.List;

/** The db_bench workloads bellows-bench runs, by their db_bench names. */
enum Workload {
    FILLSEQ("fillseq", true, false, "put num keys in ascending order into a new store"),
    FILLRANDOM("fillrandom", true, false,
            "put every key of [0, num) once, in random order, into a new store"),
    OVERWRITE("overwrite", false, false, "put num keys drawn from --distribution"),
    READRANDOM("readrandom", false, true, "get reads keys drawn from --distribution"),
    READSEQ("readseq", false, false, "read reads entries in key order with one cursor per thread"),
    SEEKRANDOM("seekrandom", false, true,
            "reads times: open a cursor, seek to a key drawn from --distribution, read --seek_nexts entries"),
    DELETERANDOM("deleterandom", false, false, "delete deletes keys drawn from --distribution");

    private final String flagName;
    private final boolean freshDb;
    private final boolean lookups;
    private final String description;

    Workload(String flagName, boolean freshDb, boolean lookups, String description) {
        this.flagName = flagName;
        this.freshDb = freshDb;
        this.lookups = lookups;
        this.description = description;
    }

    String flagName() {
        return flagName;
    }

    /** Starts from an empty store, as db_bench's fill benchmarks do. */
    boolean freshDb() {
        return freshDb;
    }

    /** Looks keys up, so found / not-found counts mean something. */
    boolean lookups() {
        return lookups;
    }

    String description() {
        return description;
    }

    /** Operations the workload performs in total over all threads. */
    long ops(BenchOptions o) {
        switch (this) {
            case READRANDOM:
            case READSEQ:
            case SEEKRANDOM:
                return o.reads();
            case DELETERANDOM:
                return o.deletes();
            default:
                return o.num();
        }
    }

    static Workload byFlagName(String name) {
        for (Workload w : values()) {
            if (w.flagName.equals(name)) {
                return w;
            }
        }
        throw new FlagException("unknown benchmark '" + name + "'; known: " + allFlagNames());
    }

    /** Parses a comma-separated list; a workload may repeat, as in db_bench. */
    static List<Workload> parseList(String list) {
        List<Workload> out = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            String name = part.trim();
            if (name.isEmpty()) {
                throw new FlagException("--benchmarks has an empty entry in '" + list + "'");
            }
            out.add(byFlagName(name));
        }
        return List.copyOf(out);
    }

    static String allFlagNames() {
        StringBuilder sb = new StringBuilder();
        for (Workload w : values()) {
            sb.append(sb.length() == 0 ? "" : ",").append(w.flagName);
        }
        return sb.toString();
    }
}
