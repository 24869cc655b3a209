package io.bellows.stress;

import io.bellows.engine.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every write the children of one cycle attempted, read back from their op logs, per slot and per
 * group in counter order (each key has one writer per run and runs follow each other).
 */
final class History {
    /** One attempted write; {@code acked} when its ACK record reached the log. */
    record Op(long counter, byte op, Durability durability, int flags, int length, int thread, boolean acked, int key) {
        boolean isGroup() {
            return op == OpLog.BATCH || op == OpLog.BATCH_DELETE;
        }

        boolean isDelete() {
            return op == OpLog.DELETE || op == OpLog.BATCH_DELETE;
        }

        /** Acknowledged with a durability that survives a process crash (SYNC or ASYNC). */
        boolean durable() {
            return acked && durability != Durability.NONE;
        }

        @Override
        public String toString() {
            String kind = switch (op) {
                case OpLog.PUT -> "put";
                case OpLog.DELETE -> "delete";
                case OpLog.BATCH -> "batch" + ((flags & OpLog.FLAG_MULTI) != 0 ? "(several groups)" : "")
                        + ((flags & OpLog.FLAG_DECOYS) != 0 ? "(decoys)" : "");
                default -> "batch(delete all)";
            };
            return kind + " " + Checker.hex(counter) + " (" + Counters.describe(counter) + ", thread " + thread + ") "
                    + durability + (acked ? " acked" : " not acked") + (isDelete() ? "" : " length=" + length);
        }
    }

    /** A batch over several groups: its counter, thread and groups. */
    record MultiBatch(long counter, int thread, int[] groups) {}

    private final List<List<Op>> slots;
    private final List<List<Op>> groups;
    private final List<MultiBatch> multiBatches = new ArrayList<>();
    private long attempted;
    private long acked;
    private long durable;

    private History(KeySpace ks) {
        slots = new ArrayList<>(ks.singles());
        for (int i = 0; i < ks.singles(); i++) {
            slots.add(null);
        }
        groups = new ArrayList<>(ks.groups());
        for (int i = 0; i < ks.groups(); i++) {
            groups.add(null);
        }
    }

    /** Reads the logs of each run's directory ({@code thread-NN.log}), runs in order. */
    static History read(KeySpace ks, List<Path> runDirs) throws IOException {
        History h = new History(ks);
        for (Path runDir : runDirs) {
            for (int t = 0; ; t++) {
                Path file = runDir.resolve(StressChild.logName(t));
                if (!Files.exists(file)) {
                    break;
                }
                h.readThread(ks, file, t);
            }
        }
        return h;
    }

    /**
     * Reads one thread's log: each engine call is one or more ATTEMPT records with one counter (several
     * for a batch over several groups) followed by as many ACKs once it returned; a kill may cut the
     * ACKs short, and one ACK is enough to know the call returned.
     */
    private void readThread(KeySpace ks, Path file, int thread) throws IOException {
        List<OpLog.Entry> entries = OpLog.read(file);
        int n = entries.size();
        int i = 0;
        while (i < n) {
            OpLog.Entry e = entries.get(i);
            if (e.type() != OpLog.ATTEMPT) {
                throw new IOException(file + ": record " + i + " is an ACK without its ATTEMPT");
            }
            int j = i + 1;
            while (j < n && entries.get(j).type() == OpLog.ATTEMPT && entries.get(j).counter() == e.counter()) {
                j++;
            }
            int k = j;
            while (k < n && k - j < j - i && entries.get(k).type() == OpLog.ACK) {
                OpLog.Entry a = entries.get(k);
                OpLog.Entry at = entries.get(i + k - j);
                if (a.counter() != at.counter() || a.key() != at.key() || a.op() != at.op()) {
                    throw new IOException(file + ": ACK " + k + " does not match ATTEMPT " + (i + k - j));
                }
                k++;
            }
            boolean multi = (e.flags() & OpLog.FLAG_MULTI) != 0;
            if (j - i > 1 && !multi || k > j && k - j < j - i && k < n) {
                throw new IOException(file + ": records " + i + " to " + k + " are no complete engine call");
            }
            int[] batchGroups = new int[j - i];
            for (int x = i; x < j; x++) {
                batchGroups[x - i] = add(ks, file, entries.get(x), thread, k > j);
            }
            if (multi) {
                multiBatches.add(new MultiBatch(e.counter(), thread, batchGroups));
            }
            i = k;
        }
    }

    private int add(KeySpace ks, Path file, OpLog.Entry e, int thread, boolean ack) throws IOException {
        int limit = e.isBatch() ? ks.groups() : ks.singles();
        if (e.key() < 0 || e.key() >= limit) {
            throw new IOException(file + ": a record names key " + e.key() + " outside the key space");
        }
        Op op = new Op(e.counter(), e.op(), e.durability(), e.flags(), e.length(), thread, ack, e.key());
        List<List<Op>> byKey = op.isGroup() ? groups : slots;
        List<Op> list = byKey.get(e.key());
        if (list == null) {
            list = new ArrayList<>(4);
            byKey.set(e.key(), list);
        }
        if (!list.isEmpty() && list.get(list.size() - 1).counter() >= op.counter()) {
            throw new IOException(file + ": counter " + Checker.hex(op.counter()) + " of key " + e.key()
                    + " does not follow " + Checker.hex(list.get(list.size() - 1).counter()));
        }
        list.add(op);
        attempted++;
        acked += ack ? 1 : 0;
        durable += op.durable() ? 1 : 0;
        return e.key();
    }

    /** Batches that wrote several groups under one counter, which must all be applied or none. */
    List<MultiBatch> multiBatches() {
        return multiBatches;
    }

    /** The writes to single slot {@code slot}, oldest first (empty when none). */
    List<Op> slot(int slot) {
        List<Op> l = slots.get(slot);
        return l == null ? List.of() : l;
    }

    List<Op> group(int g) {
        List<Op> l = groups.get(g);
        return l == null ? List.of() : l;
    }

    long attempted() {
        return attempted;
    }

    long acked() {
        return acked;
    }

    long durable() {
        return durable;
    }
}
