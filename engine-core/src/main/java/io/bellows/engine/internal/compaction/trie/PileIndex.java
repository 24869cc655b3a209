package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The containers of one version: each container's pile, newest table first, and its data volume.
 * Tables are ordered by their recorded maximum sequence (a batch stamp, see TrieSink), then number:
 * a parent drains its pile oldest first, so every batch a container receives holds, key by key,
 * newer versions than everything already there and carries a stamp at least as high; the tables of
 * one batch share their stamp, so the last one written (whose BloomCluster covers the others) comes
 * first.
 */
final class PileIndex {
    static final Comparator<FileMeta> NEWEST_FIRST =
            Comparator.comparingLong((FileMeta f) -> f.maxSequence).thenComparingLong(f -> f.number).reversed();

    final Version version;
    private final Map<Long, List<FileMeta>> piles = new HashMap<>();
    private final Map<Long, Long> volumes = new HashMap<>();

    PileIndex(Version v) {
        this.version = v;
        for (int level = 0; level < v.numLevels(); level++) {
            for (FileMeta f : v.files(level)) {
                long placement = v.placement(f.number);
                long c = Containers.containerOf(placement);
                piles.computeIfAbsent(c, k -> new ArrayList<>()).add(f);
                volumes.merge(c, Containers.dataBytesOf(placement), Long::sum);
            }
        }
        for (List<FileMeta> pile : piles.values()) {
            pile.sort(NEWEST_FIRST);
        }
    }

    /** The pile of container {@code id}, newest first; empty if it holds no table. */
    List<FileMeta> pile(long id) {
        return piles.getOrDefault(id, List.of());
    }

    long volume(long id) {
        return volumes.getOrDefault(id, 0L);
    }

    Iterable<Long> containers() {
        return piles.keySet();
    }
}
