package io.bellows.engine.internal.db;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.wal.BatchCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The engine's side of a scheme's {@link FlushPlan} (TRIAD-MEM): at a MemStore switch, shows the plan
 * the snapshot's keys with their update counts, then carries the versions of the keys it keeps into the
 * new MemStore, logging them again in the new WAL first (synced), so that once the flush releases the
 * old log a crash loses none of them. Carried versions keep their sequences, so snapshots read exactly
 * what they read before.
 *
 * <p>Until the flush is installed, a carried version is both in the snapshot (and the old log) and in the
 * active MemStore (and the new log): the same key and sequence twice, which every reader, merge and
 * pruner treats as one version (an equal internal key is never newer), and which recovery after a crash
 * in that window may replay twice with the same effect.
 */
final class CarryOver {
    private final EngineContext ctx;
    /** Sequences carried at the last switch: their keys' update counts restart (Algorithm 2). */
    @GuardedBy("state.lock")
    private LongHashSet carriedLast = new LongHashSet();

    CarryOver(EngineContext ctx) {
        this.ctx = ctx;
    }

    /**
     * REQUIRES: lock held, leader, {@code wal} just rolled. Plans the flush of {@code snapshot} and carries
     * what the plan keeps; returns the plan, or null when the flush writes everything (no plan, or the
     * carry-over failed before any carried version reached the MemStore).
     *
     * <p>Nothing is carried unless the snapshot is {@code durable} in its logs (no unlogged write, every
     * log forced when rolled): a carried version is logged again and synced, so if the original batch
     * were unlogged, or in a log tail a crash can lose, a crash before the flush is installed would keep
     * the carried part of the batch and lose the rest.
     */
    @GuardedBy("state.lock")
    FlushPlan carry(List<Segment> snapshot, Wal wal, boolean durable) {
        long entries = 0;
        for (Segment s : snapshot) {
            entries += s.entries();
        }
        FlushPlan plan = ctx.scheme.planFlush(entries);
        if (plan == null) {
            return null;
        }
        if (!durable) {
            carriedLast = new LongHashSet();
            plan.abandoned();
            return null;
        }
        long[] snapshots = ctx.snapshots.sequences();
        offerKeys(snapshot, snapshots, ctx.memstore.droppedVersions(snapshot), carriedLast, plan);
        // In key order, each key's newest version first: the order they enter the MemStore, so that a
        // lock-free reader of the active segment never finds an older carried version alone there.
        List<Carried> carried = collect(snapshot, snapshots, plan);
        if (carried.isEmpty()) {
            carriedLast = new LongHashSet();
            return plan;
        }
        long bytes = 0;
        for (Carried c : carried) {
            bytes += c.key.length + (c.value == null ? 0 : c.value.length);
        }
        // A bounded (off-heap) MemStore must take them without waiting: the leader holds the engine lock,
        // which the flush that would free memory needs to finish. Without room, the flush writes them.
        if (!ctx.memstore.hasRoomFor(bytes + 16L * carried.size(), carried.size())) {
            carriedLast = new LongHashSet();
            plan.abandoned();
            return null;
        }
        // Logged oldest first, as every other write: recovery may flush between any two records, and a
        // newer version logged before an older one of its key could be flushed alone while the older
        // joined a later L0 table, whose higher sequences make a get probe it first.
        List<Carried> logged = new ArrayList<>(carried);
        logged.sort(Comparator.comparingLong(c -> c.seq));
        try {
            for (int i = 0; i < logged.size(); i++) {
                Carried c = logged.get(i);
                WriteBatch b = new WriteBatch();
                if (c.kind == InternalKeys.KIND_DELETE) {
                    b.delete(c.key);
                } else {
                    b.put(c.key, c.value);
                }
                byte[] record = BatchCodec.encode(c.seq, List.of(b));
                wal.append(record, i == logged.size() - 1, c.seq);
                ctx.counters.walBytes.add(record.length);
            }
        } catch (IOException | RuntimeException e) {
            // Nothing reached the MemStore: the flush writes every key, and the records already appended
            // repeat versions the flush will hold (the log is broken and rolls before the next append).
            carriedLast = new LongHashSet();
            plan.abandoned();
            return null;
        }
        LongHashSet seqs = new LongHashSet(carried.size());
        for (Carried c : carried) {
            ctx.memstore.add(c.key, c.seq, c.kind, c.value);
            seqs.add(c.seq);
        }
        ctx.memstore.endWrite();
        carriedLast = seqs;
        return plan;
    }

    /**
     * First pass: offers {@code plan} each key of {@code snapshot} with its update count (its versions there
     * not in {@code carriedLast}, plus the versions {@code dropped} records) and the bytes a flush pruning
     * for {@code snapshots} would write of it.
     */
    static void offerKeys(List<Segment> snapshot, long[] snapshots, Map<ByteBuffer, Integer> dropped,
            LongHashSet carriedLast, FlushPlan plan) {
        VersionPruner pruner = new VersionPruner(snapshots, null);
        byte[] key = null;
        int updates = 0;
        long bytes = 0;
        try (MergingIterator it = merged(snapshot)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                if (key == null || !Arrays.equals(key, k)) {
                    if (key != null) {
                        plan.offer(key, updates + droppedOf(dropped, key), bytes);
                    }
                    key = k;
                    updates = 0;
                    bytes = 0;
                }
                if (!carriedLast.contains(it.sequence())) {
                    updates++;
                }
                if (pruner.keep(k, it.sequence(), it.kind())) {
                    byte[] v = it.value();
                    bytes += k.length + (v == null ? 0 : v.length);
                }
            }
            if (key != null) {
                plan.offer(key, updates + droppedOf(dropped, key), bytes);
            }
        }
    }

    private static int droppedOf(Map<ByteBuffer, Integer> dropped, byte[] key) {
        // Under NONE and BASIC nothing is ever dropped: no wrapper per key then.
        return dropped.isEmpty() ? 0 : dropped.getOrDefault(ByteBuffer.wrap(key), 0);
    }

    /** Second pass: the versions the flush would write of the keys the plan carries. */
    private List<Carried> collect(List<Segment> snapshot, long[] snapshots, FlushPlan plan) {
        List<byte[]> keys = plan.carriedKeys();
        if (keys != null) {
            return seek(snapshot, snapshots, keys);
        }
        List<Carried> out = new ArrayList<>();
        VersionPruner pruner = new VersionPruner(snapshots, null);
        byte[] key = null;
        boolean carries = false;
        try (MergingIterator it = merged(snapshot)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                boolean kept = pruner.keep(k, it.sequence(), it.kind());
                if (key == null || !Arrays.equals(key, k)) {
                    key = k;
                    carries = plan.carries(k);
                }
                if (carries && kept) {
                    out.add(new Carried(k, it.sequence(), it.kind(), it.value()));
                }
            }
        }
        return out;
    }

    /** The versions the flush would write of {@code keys} (sorted), found by seeking. */
    private static List<Carried> seek(List<Segment> snapshot, long[] snapshots, List<byte[]> keys) {
        List<Carried> out = new ArrayList<>();
        try (MergingIterator it = merged(snapshot)) {
            for (byte[] key : keys) {
                VersionPruner pruner = new VersionPruner(snapshots, null);
                for (it.seek(key, InternalKeys.MAX_SEQUENCE); it.isValid() && Arrays.equals(it.key(), key); it.next()) {
                    if (pruner.keep(key, it.sequence(), it.kind())) {
                        out.add(new Carried(key, it.sequence(), it.kind(), it.value()));
                    }
                }
            }
        }
        return out;
    }

    private static MergingIterator merged(List<Segment> snapshot) {
        List<InternalIterator> its = new ArrayList<>(snapshot.size());
        for (Segment s : snapshot) {
            its.add(s.iterator());
        }
        return new MergingIterator(its);
    }

    private record Carried(byte[] key, long seq, int kind, byte[] value) {}
}
