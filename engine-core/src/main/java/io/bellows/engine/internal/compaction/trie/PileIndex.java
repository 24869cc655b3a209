package io.bellows.engine.internal.compaction.trie;

import com.carrotsearch.hppc.LongObjectHashMap;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
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

    /**
     * The piles of one trie level, built from the version's list of that level. VersionSet keeps the
     * list of a level no edit touched, so a later version's index reuses this one by identity: a flush
     * touches the root only, a compaction two levels, and rebuilding every level after each of them
     * was most of what the version lock was held for in an LSM_TRIE fill at scale factor 64.
     */
    private static final class Level {
        final List<FileMeta> files;
        final Map<Long, List<FileMeta>> piles = new HashMap<>();
        /**
         * The same piles keyed by primitive id, for {@link #pile}: every get looks up one per level, and a
         * boxed key allocated each time (the maps above keep their deterministic order for the picker).
         */
        final LongObjectHashMap<List<FileMeta>> byId = new LongObjectHashMap<>();
        final Map<Long, Long> volumes = new HashMap<>();

        Level(Version v, int level) {
            files = v.files(level);
            for (FileMeta f : files) {
                long placement = v.placement(f.number);
                long c = Containers.containerOf(placement);
                if (Containers.level(c) != level) {
                    throw new IllegalStateException("table " + f.number + " at level " + level
                            + " is placed in a container of level " + Containers.level(c));
                }
                piles.computeIfAbsent(c, k -> new ArrayList<>()).add(f);
                volumes.merge(c, Containers.dataBytesOf(placement), Long::sum);
            }
            for (Map.Entry<Long, List<FileMeta>> e : piles.entrySet()) {
                e.getValue().sort(NEWEST_FIRST);
                byId.put(e.getKey(), e.getValue());
            }
        }
    }

    final Version version;
    private final Level[] levels;
    /** Containers holding a table, ascending (upper levels first). */
    private final long[] containers;
    /** {@link #volume} of the root, kept apart: every write group's backpressure check asks for it. */
    private final long rootVolume;
    /** Data volume of each container with its descendants, for every container on a path to a table. */
    private final Map<Long, Long> subtreeVolumes = new HashMap<>();

    PileIndex(Version v) {
        this(v, null);
    }

    /**
     * The index of {@code v}, sharing with {@code earlier} (an index of another version, or null) every
     * level whose table list is the same list.
     */
    PileIndex(Version v, PileIndex earlier) {
        this.version = v;
        this.levels = new Level[v.numLevels()];
        int count = 0;
        for (int level = 0; level < levels.length; level++) {
            Level e = earlier != null && level < earlier.levels.length ? earlier.levels[level] : null;
            levels[level] = e != null && e.files == v.files(level) ? e : new Level(v, level);
            count += levels[level].piles.size();
        }
        containers = new long[count];
        int i = 0;
        for (Level l : levels) {
            for (Map.Entry<Long, Long> e : l.volumes.entrySet()) {
                containers[i++] = e.getKey();
                for (long c = e.getKey(); ; c = Containers.parent(c)) {
                    subtreeVolumes.merge(c, e.getValue(), Long::sum);
                    if (Containers.level(c) == 0) {
                        break;
                    }
                }
            }
        }
        Arrays.sort(containers);
        rootVolume = volume(Containers.ROOT);
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
        for (int level = Containers.level(id) + 1; level < levels.length; level++) {
            for (Map.Entry<Long, List<FileMeta>> e : levels[level].piles.entrySet()) {
                if (Containers.isBelow(e.getKey(), id)) {
                    out.addAll(e.getValue());
                }
            }
        }
        return out;
    }

    /** The pile of container {@code id}, newest first; empty if it holds no table. */
    List<FileMeta> pile(long id) {
        int level = Containers.level(id);
        List<FileMeta> pile = level < levels.length ? levels[level].byId.get(id) : null;
        return pile != null ? pile : List.of();
    }

    long volume(long id) {
        int level = Containers.level(id);
        return level < levels.length ? levels[level].volumes.getOrDefault(id, 0L) : 0L;
    }

    long rootVolume() {
        return rootVolume;
    }

    /** Containers holding a table, ascending: upper levels first. */
    long[] containers() {
        return containers;
    }
}
