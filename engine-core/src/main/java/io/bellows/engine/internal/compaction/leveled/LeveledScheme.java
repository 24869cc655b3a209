package io.bellows.engine.internal.compaction.leveled;

import io.bellows.engine.CompactionPriority;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.LevelIterator;
import io.bellows.engine.internal.compaction.LevelTargets;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * LevelDB/RocksDB leveled compaction. L0 holds flushed tables that may overlap; every deeper level is
 * a run of disjoint tables whose target size grows by {@code levelSizeMultiplier}. A level over its
 * target (L0: over {@code l0CompactionTrigger} tables) is compacted by merging one table (L0: all of
 * them) with the tables it overlaps in the next level; a table with no overlap just moves down. With
 * dynamic level bytes ({@link LevelTargets#shape}) the targets follow the largest level's size and L0
 * compacts into the base level, the first level the data needs, skipping the empty ones above it.
 *
 * <p>Which table of a deeper level goes down is its {@link CompactionPriority}: by default the one whose
 * overlap with the next level is smallest for its size (RocksDB's kMinOverlappingRatio), else round-robin.
 * State: one compaction cursor per level (the largest key last compacted from it), persisted so that
 * after a restart round-robin continues through the key space instead of rewriting the start of each
 * level again; kept under either priority, so a store may switch.
 */
public final class LeveledScheme implements CompactionScheme {
    /** A trivial move or output cut is refused when it would overlap more than this many target files below. */
    static final int MAX_GRANDPARENT_OVERLAP_FILES = 10;

    private final int numLevels;
    private final int l0Slowdown;
    private final int l0Stop;
    private final LevelTargets targets;
    private final long targetFileSize;
    private final byte[][] cursors;
    private final L0Gate l0Gate;
    private final CompactionPriority priority;

    /**
     * Decides whether an automatic L0 compaction may run now: a scheme built on LEVELED (TRIAD) may defer
     * it. Called under the engine lock, like {@link #pick}.
     */
    @FunctionalInterface
    public interface L0Gate {
        /** {@code c} (all of L0 and the L1 tables it overlaps), another compaction, or null to defer it. */
        Compaction admit(Version v, Compaction c);
    }

    /** LEVELED itself, with its {@link LeveledOptions}. */
    public LeveledScheme(EngineOptions o) {
        this(o, ((LeveledOptions) o.compactionOptions()).dynamicLevelBytes(),
                ((LeveledOptions) o.compactionOptions()).priority(), (v, c) -> c);
    }

    /** The leveled part of another scheme, with static or dynamic level targets. */
    public LeveledScheme(EngineOptions o, boolean dynamicLevelBytes, CompactionPriority priority, L0Gate l0Gate) {
        this.l0Gate = l0Gate;
        this.priority = priority;
        numLevels = o.numLevels();
        l0Slowdown = o.l0SlowdownTrigger();
        l0Stop = o.l0StopTrigger();
        targets = new LevelTargets(o, dynamicLevelBytes);
        targetFileSize = o.targetFileSize();
        cursors = new byte[numLevels][];
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.LEVELED;
    }

    @Override
    public void placeFlush(Version current, FileMeta table, VersionEdit edit) {
        edit.addFile(0, table);
    }

    @Override
    public void candidates(Version v, byte[] key, List<FileMeta> out) {
        List<FileMeta> l0 = v.files(0);
        for (int i = 0; i < l0.size(); i++) {
            FileMeta f = l0.get(i);
            if (f.contains(key)) {
                out.add(f);
            }
        }
        for (int level = 1; level < numLevels; level++) {
            FileMeta f = v.findDisjoint(level, key);
            if (f != null) {
                out.add(f);
            }
        }
    }

    @Override
    public List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException {
        List<InternalIterator> out = new ArrayList<>();
        tables.addIterators(v.files(0), fillCache, out);
        for (int level = 1; level < numLevels; level++) {
            if (!v.files(level).isEmpty()) {
                out.add(new LevelIterator(v.files(level), tables, fillCache));
            }
        }
        return out;
    }

    @Override
    public Compaction pick(Version v, Set<Long> busy) {
        LevelTargets.Shape shape = targets.shape(v);
        double[] scores = new double[numLevels - 1];
        for (int level = 0; level < numLevels - 1; level++) {
            scores[level] = shape.score(level);
        }
        for (int level : LevelTargets.due(scores)) {
            Compaction c = level == 0 ? pickL0(v, shape.baseLevel(), busy) : pickLevel(v, level, busy);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** The level L0 compacts into: L1, or with dynamic level bytes the base level of {@code v}. */
    public int baseLevel(Version v) {
        return targets.shape(v).baseLevel();
    }

    private Compaction pickL0(Version v, int baseLevel, Set<Long> busy) {
        List<FileMeta> l0 = v.files(0);
        for (FileMeta f : l0) {
            if (busy.contains(f.number)) {
                return null;
            }
        }
        Compaction c = build(v, 0, baseLevel, l0, busy, "L0 has " + l0.size() + " tables");
        return c == null ? null : l0Gate.admit(v, c);
    }

    private Compaction pickLevel(Version v, int level, Set<Long> busy) {
        List<FileMeta> files = v.files(level);
        int[] order = priority == CompactionPriority.MIN_OVERLAPPING_RATIO
                ? byOverlappingRatio(files, v.files(level + 1)) : roundRobin(files, level);
        for (int i : order) {
            FileMeta f = files.get(i);
            if (busy.contains(f.number)) {
                continue;
            }
            Compaction c = build(v, level, level + 1, List.of(f), busy, "L" + level + " over target");
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** The level's tables from the one after the cursor, wrapping around. */
    private int[] roundRobin(List<FileMeta> files, int level) {
        int start = 0;
        byte[] cursor;
        synchronized (this) {
            // apply() sets cursors on the thread that installs an edit, not under the engine lock.
            cursor = cursors[level];
        }
        if (cursor != null) {
            while (start < files.size() && Bytes.compare(files.get(start).largestKey, cursor) <= 0) {
                start++;
            }
        }
        int[] order = new int[files.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = (start + i) % files.size();
        }
        return order;
    }

    /**
     * The level's tables by the bytes they overlap in the next level per byte of their own, smallest
     * first, ties in key order (RocksDB's SortFileByOverlappingRatio, without its TTL boost and with
     * plain file sizes where RocksDB boosts tables holding many deletions). Both levels are disjoint and
     * sorted, so one walk over each finds every overlap.
     */
    private static int[] byOverlappingRatio(List<FileMeta> files, List<FileMeta> next) {
        long[] ratio = new long[files.size()];
        int j = 0;
        for (int i = 0; i < files.size(); i++) {
            FileMeta f = files.get(i);
            while (j < next.size() && Bytes.compare(next.get(j).largestKey, f.smallestKey) < 0) {
                j++;
            }
            long overlap = 0;
            for (int k = j; k < next.size() && Bytes.compare(next.get(k).smallestKey, f.largestKey) <= 0; k++) {
                overlap += next.get(k).fileSize;
            }
            // In 1/1024ths, as RocksDB's.
            ratio[i] = overlap * 1024 / (f.fileSize + 1);
        }
        // A stable sort: equal ratios stay in key order.
        return IntStream.range(0, files.size()).boxed().sorted(Comparator.comparingLong(i -> ratio[i]))
                .mapToInt(Integer::intValue).toArray();
    }

    @Override
    public Compaction pickManual(Version v, int level, byte[] from, byte[] to) {
        if (level >= numLevels - 1) {
            return null;
        }
        List<FileMeta> files = v.overlapping(level, from, to);
        if (files.isEmpty()) {
            return null;
        }
        if (level == 0) {
            files = v.files(0);
        }
        return build(v, level, level == 0 ? baseLevel(v) : level + 1, files, Set.of(), "manual");
    }

    /** Adds the overlaps in level {@code out} to {@code inputs}; null if any table involved is busy. */
    private Compaction build(Version v, int level, int out, List<FileMeta> inputs, Set<Long> busy, String reason) {
        byte[] lo = null;
        byte[] hi = null;
        for (FileMeta f : inputs) {
            lo = lo == null || Bytes.compare(f.smallestKey, lo) < 0 ? f.smallestKey : lo;
            hi = hi == null || Bytes.compare(f.largestKey, hi) > 0 ? f.largestKey : hi;
        }
        List<FileMeta> next = v.overlapping(out, lo, hi);
        for (FileMeta f : next) {
            if (busy.contains(f.number)) {
                return null;
            }
        }
        List<Compaction.Input> all = new ArrayList<>();
        for (FileMeta f : inputs) {
            all.add(new Compaction.Input(level, f));
        }
        for (FileMeta f : next) {
            all.add(new Compaction.Input(out, f));
        }
        long maxGrandparentOverlap = MAX_GRANDPARENT_OVERLAP_FILES * targetFileSize;
        List<FileMeta> grandparents = out + 1 < numLevels ? v.overlapping(out + 1, lo, hi) : List.of();
        boolean trivial = level > 0 && inputs.size() == 1 && next.isEmpty()
                && totalBytes(grandparents) <= maxGrandparentOverlap;
        return new Compaction(all, out, trivial, new Splitter(grandparents, targetFileSize, maxGrandparentOverlap),
                key -> isBaseLevel(v, out, key), reason);
    }

    private boolean isBaseLevel(Version v, int outputLevel, byte[] key) {
        for (int level = outputLevel + 1; level < numLevels; level++) {
            if (v.findDisjoint(level, key) != null) {
                return false;
            }
        }
        return true;
    }

    private static long totalBytes(List<FileMeta> files) {
        long sum = 0;
        for (FileMeta f : files) {
            sum += f.fileSize;
        }
        return sum;
    }

    @Override
    public WritePressure pressure(Version v) {
        return WritePressure.of(v.files(0).size(), l0Slowdown, l0Stop);
    }

    @Override
    public long pendingCompactionBytes(Version v) {
        return targets.shape(v).pendingCompactionBytes();
    }

    @Override
    public void onCompacted(Compaction c, VersionEdit edit) {
        if (c.inputs().isEmpty()) {
            return;
        }
        int level = c.inputs().get(0).level();
        if (level == 0) {
            return;
        }
        byte[] largest = null;
        for (Compaction.Input in : c.inputs()) {
            if (in.level() == level && (largest == null || Bytes.compare(in.file().largestKey, largest) > 0)) {
                largest = in.file().largestKey;
            }
        }
        byte[] rec = new byte[Coding.varLongSize(level) + largest.length];
        int off = Coding.putVarLong(rec, 0, level);
        System.arraycopy(largest, 0, rec, off, largest.length);
        edit.schemeRecord(rec);
    }

    @Override
    public synchronized void apply(byte[] record) {
        int[] pos = {0};
        int level = (int) Coding.getVarLong(record, pos, record.length);
        if (level < numLevels) {
            cursors[level] = Arrays.copyOfRange(record, pos[0], record.length);
        }
    }

    /** L0 newest first (its tables overlap); deeper levels by key (disjoint). */
    @Override
    public Comparator<FileMeta> tableOrder(int level) {
        return level == 0 ? FileMeta.NEWEST_FIRST : FileMeta.BY_SMALLEST_KEY;
    }

    @Override
    public synchronized List<byte[]> snapshot() {
        List<byte[]> out = new ArrayList<>();
        for (int level = 0; level < numLevels; level++) {
            if (cursors[level] != null) {
                byte[] rec = new byte[Coding.varLongSize(level) + cursors[level].length];
                int off = Coding.putVarLong(rec, 0, level);
                System.arraycopy(cursors[level], 0, rec, off, cursors[level].length);
                out.add(rec);
            }
        }
        return out;
    }

    /**
     * Cuts output at the target file size, and earlier when the table would overlap too many bytes of
     * the level below the output (so that its own later compaction stays small).
     */
    private static final class Splitter implements Compaction.Splitter {
        private final List<FileMeta> grandparents;
        private final long target;
        private final long maxOverlap;
        private int index;
        private long overlap;
        private boolean seenKey;
        private final Slice wrapped = new Slice();

        Splitter(List<FileMeta> grandparents, long target, long maxOverlap) {
            this.grandparents = grandparents;
            this.target = target;
            this.maxOverlap = maxOverlap;
        }

        @Override
        public boolean splitBefore(byte[] nextKey, long currentTableBytes) {
            return splitBefore(wrapped.set(nextKey), currentTableBytes);
        }

        @Override
        public boolean splitBefore(Slice nextKey, long currentTableBytes) {
            while (index < grandparents.size() && nextKey.compareTo(grandparents.get(index).largestKey) > 0) {
                if (seenKey) {
                    overlap += grandparents.get(index).fileSize;
                }
                index++;
            }
            seenKey = true;
            if (currentTableBytes >= target || overlap > maxOverlap) {
                overlap = 0;
                return true;
            }
            return false;
        }
    }
}
