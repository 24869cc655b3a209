package io.bellows.engine.internal.io;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The process's bound on open table channels (RocksDB's {@code max_open_files}, shared by every engine
 * of the process): each {@link ReopeningChannel} counts while its file is open, and when a channel opens
 * past the bound the least recently read others are parked: their file is closed, not the reader, and
 * the next read reopens it through the channel's reopen path. Without a bound a store of many tables
 * (an LSM_TRIE of small HTables: 20,000 at 20M entries and scale factor 64) ran out of file
 * descriptors, and every flush and compaction then failed and retried forever.
 *
 * <p>"Least recently read" is the CLOCK approximation: a read sets the channel's reference bit, and the
 * hand parks the first open channel whose bit it finds clear, clearing bits as it passes. The default
 * bound is seven eighths of the process's descriptor limit (the rest, at least 256, is left to logs,
 * manifests, tables being written and the application), or 10,000 where the limit cannot be read. A
 * read of a parked table pays an open and a close: it was half, and an FLSM store of 12,400 tables
 * (20M entries at scale factor 64) under a limit of 20,000 descriptors read at 0.62x LEVELED's rate.
 */
final class OpenChannels {
    static final OpenChannels PROCESS = new OpenChannels(defaultLimit());

    private volatile int limit;
    /** Every channel not closed for good, open or parked; the clock hand walks it. */
    private final List<ReopeningChannel> ring = new ArrayList<>();
    private int hand;
    private int open;

    OpenChannels(int limit) {
        this.limit = limit;
    }

    private static int defaultLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long max = unix.getMaxFileDescriptorCount();
            if (max > 0) {
                return (int) Math.max(64, Math.min(Integer.MAX_VALUE, max - Math.max(256, max / 8)));
            }
        }
        return 10_000;
    }

    int limit() {
        return limit;
    }

    /** Sets the bound (tests lower it); applies from the next open. */
    void limit(int channels) {
        if (channels < 1) {
            throw new IllegalArgumentException("open channel limit must be positive, got " + channels);
        }
        limit = channels;
    }

    /** Channels counted as open now. */
    synchronized int open() {
        return open;
    }

    /**
     * {@code c} opened its file (first open or reopen): counts it and parks others while over the bound.
     * Called without {@code c}'s monitor, since parking takes the victims' monitors.
     */
    void opened(ReopeningChannel c) {
        List<ReopeningChannel> victims = null;
        synchronized (this) {
            if (c.closedForGood()) {
                return;
            }
            if (!c.inRing) {
                c.inRing = true;
                ring.add(c);
            }
            if (!c.counted) {
                c.counted = true;
                open++;
            }
            for (int steps = 2 * ring.size(); open > limit && steps > 0; steps--) {
                hand = hand >= ring.size() ? 0 : hand;
                ReopeningChannel v = ring.get(hand++);
                if (v == c || !v.counted) {
                    continue;
                }
                if (v.referenced) {
                    v.referenced = false;
                    continue;
                }
                v.counted = false;
                open--;
                if (victims == null) {
                    victims = new ArrayList<>(2);
                }
                victims.add(v);
            }
        }
        if (victims != null) {
            for (ReopeningChannel v : victims) {
                v.park();
            }
        }
    }

    /** {@code c} is closed for good (its table was deleted or its engine closed). */
    synchronized void closed(ReopeningChannel c) {
        if (c.inRing) {
            int i = ring.indexOf(c);
            ring.remove(i);
            if (i < hand) {
                hand--;
            }
            c.inRing = false;
        }
        if (c.counted) {
            c.counted = false;
            open--;
        }
    }
}
