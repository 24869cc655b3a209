package io.bellows.engine.internal.compaction.ptier;

import com.carrotsearch.hppc.IntArrayList;
import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.LevelIterator;
import io.bellows.engine.internal.compaction.LevelTargets;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * PTierDB (paper 002, §III): tiered levels whose tables may overlap, with three merge policies.
 * <ul>
 *   <li>merge and split: when L0 holds {@code l0CompactionTrigger} tables, all of them are merged into
 *       L1, the output cut by {@link PrefixSplitter}; L1's tables are not rewritten;
 *   <li>merge and move: when L<sub>i</sub> (0 &lt; i &lt; k-1) holds more than its target bytes, all of
 *       its tables go to L<sub>i+1</sub>, merged or moved as {@link MergeMovePlanner} decides, one
 *       chain of overlapping tables at a time ({@link LevelPushes});
 *   <li>intra-level merge: when a table of the largest level (the deepest holding tables, the paper's
 *       L<sub>k-1</sub>) that overlaps others has been probed by as many gets as its read budget
 *       allows, the tables overlapping it are merged into new tables there; and (Bellows' addition)
 *       when {@code levelSizeMultiplier} tables there hold one key.
 * </ul>
 * Whole levels move down, so every version of a key in L<sub>i</sub> is newer than any in
 * L<sub>i+1</sub>; within a level, tables moved side by side may hold interleaved sequences, so a get
 * probes every table of a level that may hold the key and keeps the highest sequence (a candidate
 * group per level), instead of the paper's rule of numbering merged tables by the newest input's file
 * number. The scheme keeps no state in the manifest; read budgets restart at each open.
 */
public final class PtierScheme implements CompactionScheme {
    private final int numLevels;
    private final int l0Slowdown;
    private final int l0Stop;
    private final LevelTargets targets;
    private final long splitThreshold;
    private final int readsOption;
    private final int lastLevelRuns;
    private final Prefixes prefixes;
    private final MergeMovePlanner planner;
    private final LevelPushes pushes;
    /** Last-level tables whose read budget ran out, oldest first; touched by readers and by pick. */
    private final ConcurrentLinkedQueue<Long> readTriggered = new ConcurrentLinkedQueue<>();
    /** Budgets of the current largest level by file number; only {@link #index} (one at a time) uses it. */
    private Map<Long, AtomicInteger> budgetsByNumber = new HashMap<>();

    public PtierScheme(EngineOptions o) {
        PtierOptions p = (PtierOptions) o.compactionOptions();
        numLevels = o.numLevels();
        l0Slowdown = o.l0SlowdownTrigger();
        l0Stop = o.l0StopTrigger();
        targets = new LevelTargets(o);
        splitThreshold = p.splitThreshold() != 0 ? p.splitThreshold() : o.targetFileSize();
        readsOption = p.intraLevelMergeReads();
        lastLevelRuns = o.levelSizeMultiplier();
        prefixes = new Prefixes(p);
        planner = new MergeMovePlanner(prefixes);
        pushes = new LevelPushes(numLevels);
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.PTIER;
    }

    @Override
    public void placeFlush(Version current, FileMeta table, VersionEdit edit) {
        edit.addFile(0, table);
    }

    private static TierIndex tiers(Version v) {
        return (TierIndex) v.schemeIndex();
    }

    /**
     * The candidate groups flattened. Within a level this order does not tell which table is newer, so
     * nothing may stop at the first hit here: lookups go through {@link #candidateGroups}.
     */
    @Override
    public void candidates(Version v, byte[] key, List<FileMeta> out) {
        candidateGroups(v, key, out, new IntArrayList());
    }

    /** Each L0 table holding the key alone, newest first; then per deeper level, all its tables holding it. */
    @Override
    public void candidateGroups(Version v, byte[] key, List<FileMeta> out, IntArrayList groupEnds) {
        for (FileMeta f : v.files(0)) {
            if (f.contains(key)) {
                out.add(f);
                groupEnds.add(out.size());
            }
        }
        TierIndex index = tiers(v);
        for (int level = 1; level < numLevels; level++) {
            int before = out.size();
            index.holding(level, key, out);
            if (out.size() > before) {
                groupEnds.add(out.size());
            }
        }
    }

    @Override
    public boolean onTableRead(Version v, FileMeta table) {
        AtomicInteger budget = tiers(v).readBudget(table);
        if (budget != null && budget.decrementAndGet() == 0) {
            readTriggered.add(table.number);
            return true;
        }
        return false;
    }

    @Override
    public List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException {
        List<InternalIterator> out = new ArrayList<>();
        try {
            tables.addIterators(v.files(0), fillCache, out);
            TierIndex index = tiers(v);
            for (int level = 1; level < numLevels; level++) {
                for (List<FileMeta> run : index.runs(level)) {
                    out.add(new LevelIterator(run, tables, fillCache));
                }
            }
        } catch (IOException | RuntimeException e) {
            for (InternalIterator it : out) {
                it.close();
            }
            throw e;
        }
        return out;
    }

    /**
     * By urgency: L0 over its trigger or a level over its target (the highest score first; a level whose
     * push has begun counts as at least due), then read-triggered merges, then the space trigger.
     */
    @Override
    public Compaction pick(Version v, Set<Long> busy) {
        double[] scores = new double[numLevels - 1];
        for (int level = 0; level < numLevels - 1; level++) {
            double s = targets.score(v, level);
            scores[level] = level > 0 && pushes.active(level, v.files(level)) ? Math.max(1, s) : s;
        }
        for (int level : LevelTargets.due(scores)) {
            if (level == 0) {
                if (!anyBusy(v.files(0), busy)) {
                    return mergeAndSplit(v, v.files(0), "L0 has " + v.files(0).size() + " tables");
                }
                continue;
            }
            if (!pushes.active(level)) {
                if (anyBusy(v.files(level), busy)) {
                    continue;
                }
                pushes.start(level, v.files(level));
            }
            Compaction c = nextChains(v, level, busy);
            if (c != null) {
                return c;
            }
        }
        Compaction c = pickReadTriggered(v, busy);
        return c != null ? c : pickDeepest(v, busy);
    }

    /**
     * The next part of the push of {@code level}: every chain of its pushed tables that is only moved,
     * and the first chain with a merge, skipping chains with a table in {@code busy}; null if none.
     */
    private Compaction nextChains(Version v, int level, Set<Long> busy) {
        List<FileMeta> moves = new ArrayList<>();
        List<List<FileMeta>> merges = List.of();
        List<FileMeta> pushed = sortedBySmallest(pushes.remaining(level, v.files(level)));
        for (List<FileMeta> chain : MergeMovePlanner.overlapGroups(pushed)) {
            if (anyBusy(chain, busy)) {
                continue;
            }
            MergeMovePlanner.Plan plan = planner.plan(chain);
            if (plan.merges().isEmpty()) {
                moves.addAll(plan.moves());
            } else if (merges.isEmpty()) {
                moves.addAll(plan.moves());
                merges = plan.merges();
            }
        }
        if (moves.isEmpty() && merges.isEmpty()) {
            return null;
        }
        return push(v, level, new MergeMovePlanner.Plan(moves, merges), "L" + level + " pushed down");
    }

    /**
     * The space trigger: when {@code levelSizeMultiplier} tables of the largest level hold one key, those
     * tables are merged in place. The paper triggers intra-level merges by reads only; a store that is
     * written and never read would then keep every version that reached that level, so Bellows bounds the
     * sorted runs there as tiering does (each push from the level above adds at most one run, about a
     * multiplier-th of the data, so space amplification stays near 2).
     */
    private Compaction pickDeepest(Version v, Set<Long> busy) {
        TierIndex index = tiers(v);
        if (index.largestLevelDepth() < lastLevelRuns || pushes.active(index.largestLevel())) {
            return null;
        }
        int last = index.largestLevel();
        List<FileMeta> deepest = v.overlapping(last, index.deepestKey(), index.deepestKey());
        if (anyBusy(deepest, busy)) {
            return null;
        }
        List<Compaction.Input> group = new ArrayList<>();
        for (FileMeta f : sortedBySmallest(deepest)) {
            group.add(new Compaction.Input(last, f));
        }
        return compaction(v, last, List.of(), List.of(group), last, deepest.size() + " runs at L" + last);
    }

    private static boolean anyBusy(List<FileMeta> files, Set<Long> busy) {
        for (FileMeta f : files) {
            if (busy.contains(f.number)) {
                return true;
            }
        }
        return false;
    }

    /** All of {@code l0} merged into L1, cut at prefix changes. */
    private Compaction mergeAndSplit(Version v, List<FileMeta> l0, String reason) {
        List<Compaction.Input> group = new ArrayList<>();
        for (FileMeta f : l0) {
            group.add(new Compaction.Input(0, f));
        }
        return compaction(v, 0, List.of(), List.of(group), 1, reason);
    }

    /** {@code tables} of {@code level} to the next level, merged or moved as the planner decides. */
    private Compaction mergeAndMove(Version v, int level, List<FileMeta> tables, String reason) {
        return push(v, level, planner.plan(sortedBySmallest(tables)), reason);
    }

    private Compaction push(Version v, int level, MergeMovePlanner.Plan plan, String reason) {
        List<Compaction.Input> moves = new ArrayList<>();
        for (FileMeta f : plan.moves()) {
            moves.add(new Compaction.Input(level, f));
        }
        List<List<Compaction.Input>> groups = new ArrayList<>();
        for (List<FileMeta> g : plan.merges()) {
            List<Compaction.Input> inputs = new ArrayList<>();
            for (FileMeta f : g) {
                inputs.add(new Compaction.Input(level, f));
            }
            groups.add(inputs);
        }
        return compaction(v, level, moves, groups, level + 1, reason);
    }

    /** The oldest read-triggered target still in the largest level, merged with the tables overlapping it. */
    private Compaction pickReadTriggered(Version v, Set<Long> busy) {
        int last = tiers(v).largestLevel();
        if (last < 1) {
            readTriggered.clear();
            return null;
        }
        if (pushes.active(last)) {
            return null;
        }
        for (Long number : readTriggered) {
            FileMeta target = null;
            for (FileMeta f : v.files(last)) {
                if (f.number == number) {
                    target = f;
                    break;
                }
            }
            List<FileMeta> overlapping = target == null ? List.of()
                    : v.overlapping(last, target.smallestKey, target.largestKey);
            if (overlapping.size() < 2) {
                readTriggered.remove(number);
                continue;
            }
            if (anyBusy(overlapping, busy)) {
                continue;
            }
            readTriggered.remove(number);
            List<Compaction.Input> group = new ArrayList<>();
            for (FileMeta f : overlapping) {
                group.add(new Compaction.Input(last, f));
            }
            return compaction(v, last, List.of(), List.of(group), last, "reads of #" + number);
        }
        return null;
    }

    /**
     * compactRange at {@code level}: the tables meeting {@code [from, to]} and every table chained to
     * them by overlap (so no key's versions in the level are split between pushed and kept tables). L0
     * is merged into L1, the middle levels follow merge and move, the last configured level is merged in place.
     */
    @Override
    public Compaction pickManual(Version v, int level, byte[] from, byte[] to) {
        pushes.end(level);
        List<FileMeta> chosen = new ArrayList<>();
        for (List<FileMeta> g : MergeMovePlanner.overlapGroups(sortedBySmallest(v.files(level)))) {
            for (FileMeta f : g) {
                if (f.overlaps(from, to)) {
                    chosen.addAll(g);
                    break;
                }
            }
        }
        if (chosen.isEmpty()) {
            return null;
        }
        if (level == 0) {
            return mergeAndSplit(v, chosen, "manual");
        }
        if (level < numLevels - 1) {
            return mergeAndMove(v, level, chosen, "manual");
        }
        List<List<Compaction.Input>> groups = new ArrayList<>();
        for (List<FileMeta> g : MergeMovePlanner.overlapGroups(chosen)) {
            List<Compaction.Input> inputs = new ArrayList<>();
            for (FileMeta f : g) {
                inputs.add(new Compaction.Input(level, f));
            }
            groups.add(inputs);
        }
        return compaction(v, level, List.of(), groups, level, "manual");
    }

    private Compaction compaction(Version v, int inputLevel, List<Compaction.Input> moves,
            List<List<Compaction.Input>> groups, int outputLevel, String reason) {
        LongHashSet merged = new LongHashSet();
        for (List<Compaction.Input> g : groups) {
            for (Compaction.Input in : g) {
                merged.add(in.file().number);
            }
        }
        TierIndex index = tiers(v);
        Compaction.BaseLevelTest base = key -> isBaseFor(v, index, inputLevel, merged, key);
        return new Compaction(moves, groups, outputLevel, new PrefixSplitter(prefixes, splitThreshold), base, reason);
    }

    /**
     * Whether no table of {@code v} at {@code fromLevel} or deeper, other than the merged ones, may hold
     * {@code key}: tables moved beside the output, and older tables of the output level, count, since
     * a level's tables overlap.
     */
    private boolean isBaseFor(Version v, TierIndex index, int fromLevel, LongHashSet merged, byte[] key) {
        for (FileMeta f : v.files(0)) {
            if (fromLevel == 0 && f.contains(key) && !merged.contains(f.number)) {
                return false;
            }
        }
        List<FileMeta> holding = new ArrayList<>();
        for (int level = Math.max(1, fromLevel); level < numLevels; level++) {
            index.holding(level, key, holding);
            for (FileMeta f : holding) {
                if (!merged.contains(f.number)) {
                    return false;
                }
            }
            holding.clear();
        }
        return true;
    }

    private static List<FileMeta> sortedBySmallest(List<FileMeta> files) {
        List<FileMeta> out = new ArrayList<>(files);
        out.sort(FileMeta.BY_SMALLEST_KEY);
        return out;
    }

    @Override
    public WritePressure pressure(Version v) {
        return WritePressure.of(v.files(0).size(), l0Slowdown, l0Stop);
    }

    @Override
    public void onCompacted(Compaction c, VersionEdit edit) {}

    @Override
    public void apply(byte[] record) {
        throw new IllegalStateException("PTIER keeps no scheme records, found one of " + record.length + " bytes");
    }

    @Override
    public List<byte[]> snapshot() {
        return List.of();
    }

    /** L0 newest first; every deeper level by smallest key, its tables possibly overlapping. */
    @Override
    public Comparator<FileMeta> tableOrder(int level) {
        return level == 0 ? FileMeta.NEWEST_FIRST : FileMeta.BY_SMALLEST_KEY;
    }

    @Override
    public Object index(Version v) {
        Map<FileMeta, AtomicInteger> budgets = TierIndex.budgets(v, budgetsByNumber, this::readLimit);
        Map<Long, AtomicInteger> byNumber = new HashMap<>();
        for (Map.Entry<FileMeta, AtomicInteger> e : budgets.entrySet()) {
            byNumber.put(e.getKey().number, e.getValue());
        }
        budgetsByNumber = byNumber;
        return new TierIndex(v, budgets);
    }

    /** LevelDB's allowed_seeks rule unless the options fix a count: one read per 16 KiB, at least 100. */
    private int readLimit(FileMeta table) {
        return readsOption != 0 ? readsOption : (int) Math.max(100, Math.min(Integer.MAX_VALUE, table.fileSize / 16384));
    }
}
