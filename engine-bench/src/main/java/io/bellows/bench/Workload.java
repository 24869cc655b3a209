package io.bellows.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The workloads bellows-bench runs: db_bench's, by their db_bench names, and YCSB's core workloads A
 * to F. The default list ({@link BenchFlags#DEFAULT_BENCHMARKS}) is the db_bench set before
 * readwhilewriting.
 */
enum Workload {
    FILLSEQ("fillseq", true, false, "put num keys in ascending order into a new store"),
    FILLRANDOM("fillrandom", true, false,
            "put every key of [0, num) once, in random order, into a new store"),
    OVERWRITE("overwrite", false, false, "put num keys drawn from --distribution"),
    READRANDOM("readrandom", false, true, "get reads keys drawn from --distribution"),
    READSEQ("readseq", false, false, "read reads entries in key order with one cursor per thread"),
    SEEKRANDOM("seekrandom", false, true,
            "reads times: open a cursor, seek to a key drawn from --distribution, read --seek_nexts entries"),
    DELETERANDOM("deleterandom", false, false, "delete deletes keys drawn from --distribution"),
    READWHILEWRITING("readwhilewriting", false, true,
            "reads gets over --threads readers while one more thread overwrites keys until they finish"),
    READRANDOMWRITERANDOM("readrandomwriterandom", false, true,
            "--operations ops on keys drawn from --distribution, each a get with chance --readwritepercent, else a put"),
    YCSB_A("ycsba", YcsbMix.A, "YCSB A, update heavy: 50% reads, 50% updates"),
    YCSB_B("ycsbb", YcsbMix.B, "YCSB B, read mostly: 95% reads, 5% updates"),
    YCSB_C("ycsbc", YcsbMix.C, "YCSB C, read only"),
    YCSB_D("ycsbd", YcsbMix.D, "YCSB D, read latest: 95% reads of recent keys, 5% inserts of new keys"),
    YCSB_E("ycsbe", YcsbMix.E, "YCSB E, short ranges: 95% scans of 1..--scan_length entries, 5% inserts"),
    YCSB_F("ycsbf", YcsbMix.F, "YCSB F, read-modify-write: 50% reads, 50% get-then-put"),
    REPLAY("replay", false, true, "replay the trace of --trace (Engine.startTrace) on this store: one thread per"
            + " recorded thread in its recorded order, at --replay_speed");

    private final String flagName;
    private final boolean freshDb;
    private final boolean lookups;
    private final String description;
    private final YcsbMix mix;

    Workload(String flagName, boolean freshDb, boolean lookups, String description) {
        this.flagName = flagName;
        this.freshDb = freshDb;
        this.lookups = lookups;
        this.description = description;
        this.mix = null;
    }

    Workload(String flagName, YcsbMix mix, String description) {
        this.flagName = flagName;
        this.freshDb = false;
        this.lookups = mix.read() + mix.readModifyWrite() > 0;
        this.description = description + " (--operations ops, --request_distribution keys)";
        this.mix = mix;
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

    /**
     * Whether --settle_seconds waits for compaction after it: after the db_bench workloads that write
     * (readrandomwriterandom too), not after the YCSB mixes.
     */
    boolean settles() {
        return this == READRANDOMWRITERANDOM || !lookups && this != READSEQ;
    }

    /** Needs an ordered cursor, which a store without key order (LSM_TRIE) refuses. */
    boolean scans() {
        return this == READSEQ || this == SEEKRANDOM || mix != null && mix.scan() > 0;
    }

    String description() {
        return description;
    }

    /** The YCSB operation mix, or null for a db_bench workload. */
    YcsbMix mix() {
        return mix;
    }

    /** Operations the workload performs in total over all threads. */
    long ops(BenchOptions o) {
        switch (this) {
            case READRANDOM:
            case READSEQ:
            case SEEKRANDOM:
            case READWHILEWRITING:
                return o.reads();
            case DELETERANDOM:
                return o.deletes();
            case READRANDOMWRITERANDOM:
                return o.operations();
            default:
                return mix == null ? o.num() : o.operations();
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
