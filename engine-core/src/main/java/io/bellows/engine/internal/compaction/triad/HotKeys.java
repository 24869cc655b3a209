package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.util.Bytes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * TRIAD-MEM's plan of one flush (paper §4.1; Algorithm 2 separateKeys, Algorithm 1 FLUSH): the top K keys
 * by update count stay in memory; if fewer than FLUSH_TH keys would be written, none is and everything
 * stays. Both are bounded by {@code maxCarriedBytes}, so that a flush always frees memory.
 */
final class HotKeys implements FlushPlan {
    /** A key offered, ordered coldest first (fewest updates, then the larger key), for the top-K heap. */
    private record Candidate(byte[] key, int updates, long bytes) implements Comparable<Candidate> {
        @Override
        public int compareTo(Candidate o) {
            int c = Integer.compare(updates, o.updates);
            return c != 0 ? c : Bytes.compare(o.key, key);
        }
    }

    private final int k;
    private final int flushThreshold;
    private final long maxCarriedBytes;
    private final PriorityQueue<Candidate> top = new PriorityQueue<>();
    private long keys;
    private long bytes;
    /** Null until decided; then read by the flush thread and by stats too. */
    private volatile Set<ByteBuffer> hot;
    private volatile boolean all;
    private volatile boolean abandoned;

    /**
     * @param k the number of hot keys (K)
     * @param flushThreshold FLUSH_TH in cold keys (0: off)
     * @param maxCarriedBytes most key and value bytes the plan may keep in memory
     */
    HotKeys(int k, int flushThreshold, long maxCarriedBytes) {
        this.k = k;
        this.flushThreshold = flushThreshold;
        this.maxCarriedBytes = maxCarriedBytes;
    }

    @Override
    public void offer(byte[] key, int updates, long keyBytes) {
        keys++;
        bytes += keyBytes;
        // A key written once since the last flush is not hot, whatever K leaves room for.
        if (updates < 2 || k == 0) {
            return;
        }
        if (top.size() < k) {
            top.add(new Candidate(key, updates, keyBytes));
        } else if (updates >= top.peek().updates) {
            Candidate c = new Candidate(key, updates, keyBytes);
            if (c.compareTo(top.peek()) > 0) {
                top.poll();
                top.add(c);
            }
        }
    }

    @Override
    public boolean carries(byte[] key) {
        decide();
        return all || !hot.isEmpty() && hot.contains(ByteBuffer.wrap(key));
    }

    @Override
    public void abandoned() {
        abandoned = true;
    }

    /** Whether the engine wrote every key instead. */
    boolean wasAbandoned() {
        return abandoned;
    }

    @Override
    public List<byte[]> carriedKeys() {
        decide();
        if (all) {
            return null;
        }
        List<byte[]> keys = new ArrayList<>(top.size());
        for (Candidate c : top) {
            keys.add(c.key);
        }
        keys.sort(Bytes::compare);
        return keys;
    }

    /** Whether the plan is complete (the engine asked what it carries). */
    boolean decided() {
        return hot != null;
    }

    /** REQUIRES: decided. The hot keys chosen (0 when everything stays). */
    int hotKeys() {
        return all ? 0 : hot.size();
    }

    /** REQUIRES: decided. Whether the flush writes nothing (FLUSH_TH). */
    boolean keepsAll() {
        return all;
    }

    /** Chooses, once every key was offered; called by the thread that offered them. */
    void decide() {
        if (hot != null) {
            return;
        }
        // Coldest first out of the heap; drop the coldest until the rest fits.
        long hotBytes = 0;
        for (Candidate c : top) {
            hotBytes += c.bytes;
        }
        while (hotBytes > maxCarriedBytes && !top.isEmpty()) {
            hotBytes -= top.poll().bytes;
        }
        Set<ByteBuffer> chosen = new HashSet<>();
        for (Candidate c : top) {
            chosen.add(ByteBuffer.wrap(c.key));
        }
        all = keys - chosen.size() < flushThreshold && bytes <= maxCarriedBytes;
        hot = chosen;
    }
}
