package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The immutable segments between the active segment and the snapshot, newest first (Accordion §3.3).
 * A pipeline is never modified: every change makes a new one. The version changes with every change
 * except a push at the head, which leaves the suffix a running compaction works on intact; a swap
 * that finds another version gives up, so a compaction racing a disk flush aborts harmlessly.
 */
final class Pipeline {
    static final Pipeline EMPTY = new Pipeline(List.of(), 0);

    final List<Segment> segments;
    final long version;

    private Pipeline(List<Segment> segments, long version) {
        this.segments = segments;
        this.version = version;
    }

    Pipeline pushHead(Segment s) {
        List<Segment> next = new ArrayList<>(segments.size() + 1);
        next.add(s);
        next.addAll(segments);
        return new Pipeline(Collections.unmodifiableList(next), version);
    }

    /** The pipeline emptied by a disk flush taking all of it. */
    Pipeline cleared() {
        return new Pipeline(List.of(), version + 1);
    }

    /**
     * Replaces the suffix {@code tail} (which a compaction read at {@code expectedVersion}) by
     * {@code with}, keeping segments pushed at the head since. Null if the pipeline changed otherwise.
     */
    Pipeline replaceTail(List<Segment> tail, Segment with, long expectedVersion) {
        if (version != expectedVersion) {
            return null;
        }
        int keep = segments.size() - tail.size();
        if (keep < 0 || !sameSegments(segments.subList(keep, segments.size()), tail)) {
            // Only a push at the head leaves the version alone, so the suffix must be the same objects.
            throw new IllegalStateException("pipeline at version " + version + " lost the segments a compaction read");
        }
        List<Segment> next = new ArrayList<>(keep + 1);
        next.addAll(segments.subList(0, keep));
        next.add(with);
        return new Pipeline(Collections.unmodifiableList(next), version + 1);
    }

    /** Replaces one segment by its flattened form; null if the pipeline changed otherwise. */
    Pipeline replace(Segment old, Segment with, long expectedVersion) {
        if (version != expectedVersion) {
            return null;
        }
        List<Segment> next = new ArrayList<>(segments);
        int i = indexOf(old);
        if (i < 0) {
            throw new IllegalStateException("pipeline at version " + version + " lost the segment being flattened");
        }
        next.set(i, with);
        return new Pipeline(Collections.unmodifiableList(next), version + 1);
    }

    private int indexOf(Segment s) {
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i) == s) {
                return i;
            }
        }
        return -1;
    }

    private static boolean sameSegments(List<Segment> a, List<Segment> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }
}
