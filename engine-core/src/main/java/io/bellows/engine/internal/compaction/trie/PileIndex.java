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
    /** Data volume of each container with its descendants, for every container on a path to a table. */
    private final Map<Long, Long> subtreeVolumes = new HashMap<>();

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
        for (Map.Entry<Long, Long> e : volumes.entrySet()) {
            for (long c = e.getKey(); ; c = Containers.parent(c)) {
                subtreeVolumes.merge(c, e.getValue(), Long::sum);
                if (Containers.level(c) == 0) {
                    break;
                }
            }
        }
    }

    /** Data volume of container {@code id} and every container below it. */
    long subtreeVolume(long id) {
        return subtreeVolumes.getOrDefault(id, 0L);
    }

    /** Containers at {@code level} holding a table or having one below them. */
    List<Long> subtreesAt(int level) {
        List<Long> out = new ArrayList<>();
        for (long c : subtreeVolumes.keySet()) {
            if (Containers.level(c) == level) {
                out.add(c);
            }
        }
        out.sort(null);
        return out;
    }

    /** The tables of every container strictly below {@code id}. */
    List<FileMeta> below(long id) {
        List<FileMeta> out = new ArrayList<>();
        for (Map.Entry<Long, List<FileMeta>> e : piles.entrySet()) {
            if (Containers.isBelow(e.getKey(), id)) {
                out.addAll(e.getValue());
            }
        }
        return out;
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
