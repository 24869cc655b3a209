package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LSM-trie (paper 000, §2): a trie of containers with fan-out 8, each holding a pile of HTables. A key
 * lives, at each level, only in the container its hash path names, so a lookup probes one pile per
 * level, reading at most one BloomCluster run per level. Flushes append HTables to the root; a
 * container above the last level whose pile holds {@code TrieOptions.pileTrigger} tables' worth of data is
 * merged (newest version wins, versions a snapshot needs kept, tombstones kept) into one new batch
 * of tables appended to each of its 8 children, whose existing tables are not rewritten; that is
 * where the low write amplification comes from. Last-level containers are garbage-collected (their
 * pile merged into itself, dropping shadowed versions and tombstones) when a sampled garbage ratio
 * passes {@code TrieOptions.gcGarbageRatio}.
 *
 * <p>Small data stays high in the trie. The paper's tables are always full (a MemTable flush fills
 * one); here flushes, {@code compactRange} and deletes make small ones, so tables are sized by what
 * they hold (docs/formats/htable.md), a pile of many tables holding less than its trigger is merged
 * in place rather than pushed down (which would give each of 8 children a table), and
 * {@code compactRange} keeps a subtree holding less than a trigger's worth in its top container.
 * Table bytes and counts so follow the data (TrieSpaceTest).
 *
 * <p>State (scheme records, {@link TrieRecords}): the store's hash seed with the trie depth and bucket
 * count it was created with (placements and clusters depend on them: options that set others are refused,
 * options that leave the seed or the bucket count unset take the store's), and the latest garbage
 * estimate of each sampled last-level container.
 *
 * <p>Thread safety: {@link #get} and {@link #candidates} run concurrently with everything; the pile
 * index cache is a volatile single slot; scheme state is guarded by this object.
 */
public final class TrieScheme implements CompactionScheme {
    /** A pile is compacted once it holds this fraction of {@code pileTrigger} full tables. */
    static final double TRIGGER_FILL = 0.9;
    /**
     * A compaction drains the oldest tables of a pile up to this fraction of 8 full tables (times
     * pileTrigger / 8), so each child receives just under one full table per batch instead of a full
     * one plus a nearly empty one (the authors' code drains about 7.2 tables' worth the same way).
     */
    static final double DRAIN_FILL = 0.96;
    /**
     * The drain fill for tables of many items. A child's share of a drain varies by {@link #shareSpread}:
     * 1.5% at 4,000 items, which DRAIN_FILL's margin covers, and 0.2% at the quarter million of a
     * real-size 32 MiB table, where 0.96 left 3% of every table's buckets empty. {@link #drainFill} keeps
     * four spreads below 1.0 (the sink counts parts with three above, TrieSink#PART_MARGIN), up to this
     * cap, which leaves room for the spread of item sizes.
     */
    static final double MAX_DRAIN_FILL = 0.99;
    /**
     * Tables at which a pile holding less than one full table is merged in place: every table of a pile
     * repeats the filters of the smaller tables below it in its BloomCluster (one box per column), so a
     * pile of many small tables would cost more in clusters than in data.
     */
    static final int SMALL_PILE_TABLES = 4;

    private final int depth;
    private final int pileTrigger;
    private final int pileSlowdown;
    private final int pileStop;
    /**
     * Buckets of a full table, with the capacity and trigger volume they make: the store's recorded count
     * when the options leave it unset (set at recovery, before any background thread starts).
     */
    private int buckets;
    private final boolean bucketsRequested;
    private final int bloomBitsPerKey;
    private final double gcRatio;
    private long tableCapacity;
    /** Data volume of a pile that starts its push down (and the most compactRange keeps in a subtree's top). */
    private double triggerVolume;
    /** What compactRange decided for each container of its compactions' top level; see {@link #pickManual}. */
    private final Map<Compaction, Plan> plans = Collections.synchronizedMap(new WeakHashMap<>());
    /** Containers a running compaction merges in place, which their parent must not push onto. */
    private final InPlaceMerges inPlaceMerges = new InPlaceMerges();
    private final TrieReads reads = new TrieReads();
    private volatile KeyHash hash;
    /** Garbage estimates (per mille) of last-level containers. */
    private final Map<Long, Integer> garbage = new HashMap<>();
    /** Data volume of tables written and not yet placed by a flush. */
    private final Map<Long, Long> pendingVolumes = new ConcurrentHashMap<>();
    /** Bytes of BloomCluster pages the HTable readers of this store may cache. */
    private final long filterCacheBytes;
    private final Object indexLock = new Object();
    /** The last index built at an install, whose unchanged levels the next one shares. */
    private PileIndex lastIndex;
    /** The store's BloomCluster page cache, made when the table formats are registered. */
    private volatile FilterPageCache filterCache;
    /** TrieOptions.hashSeed if set: a new store takes it, an existing one must have been made with it. */
    private final Long requestedSeed;

    /** The top level of a manual compaction and its containers that take their subtree in place. */
    private record Plan(int level, Set<Long> inPlace) {}

    public TrieScheme(EngineOptions o) {
        TrieOptions t = (TrieOptions) o.compactionOptions();
        depth = t.depth();
        pileTrigger = t.pileTrigger();
        pileSlowdown = t.pileSlowdown();
        pileStop = t.pileStop();
        bucketsRequested = t.tableBucketsSet();
        bloomBitsPerKey = t.bloomBitsPerKey();
        gcRatio = t.gcGarbageRatio();
        filterCacheBytes = t.filterCacheSize();
        size(t.tableBuckets());
        requestedSeed = t.hashSeed().isPresent() ? t.hashSeed().getAsLong() : null;
        hash = new KeyHash(requestedSeed != null ? requestedSeed : new SecureRandom().nextLong());
    }

    private void size(int fullTableBuckets) {
        buckets = fullTableBuckets;
        tableCapacity = HTableFormat.capacity(buckets);
        triggerVolume = TRIGGER_FILL * pileTrigger * tableCapacity;
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.LSM_TRIE;
    }

    @Override
    public int numLevels(EngineOptions options) {
        return depth;
    }

    /**
     * HTables, read through one BloomCluster page cache per store, owned here, and the formats' block cache.
     * Every registration (the engine's, the stats collector's) shares it; each used to make its own.
     */
    @Override
    public synchronized void registerTableFormats(TableFormats formats, EngineCounters counters) {
        FilterPageCache filterCache = this.filterCache != null ? this.filterCache : new FilterPageCache(filterCacheBytes);
        this.filterCache = filterCache;
        formats.register(FileHeader.KIND_HTABLE, (file, path, number) -> HTableReader.open(file, path, number,
                filterCache, formats.blockCache(), counters));
    }

    KeyHash hash() {
        return hash;
    }

    /**
     * The store's BloomCluster page cache, which new clusters are written through and new tables' readers
     * share; null before the table formats are registered.
     */
    FilterPageCache filterCache() {
        return filterCache;
    }

    int buckets() {
        return buckets;
    }

    int bloomBitsPerKey() {
        return bloomBitsPerKey;
    }

    void noteVolume(long number, long dataBytes) {
        pendingVolumes.put(number, dataBytes);
    }

    /**
     * The pile index of {@code v}: built once when the version was installed ({@link #index}), or here
     * for a version never installed. One index per version: a single cached index was rebuilt whenever
     * the compaction thread's base version and the current one alternated (pick, write-stall pressure,
     * gets), a tenth of an LSM_TRIE fill's CPU at scale factor 64.
     */
    PileIndex piles(Version v) {
        Object idx = v.schemeIndex();
        return idx != null ? (PileIndex) idx : new PileIndex(v);
    }

    /** Built under the version set's lock, one version at a time, from the index built before it. */
    @Override
    public Object index(Version v) {
        synchronized (indexLock) {
            PileIndex idx = new PileIndex(v, lastIndex);
            lastIndex = idx;
            return idx;
        }
    }

    // ------------------------------------------------------------------ writes

    @Override
    public TableSink flushOutputs(TableWriteContext ctx) {
        TrieSink sink = new TrieSink(ctx, this, 0, Set.of(), 0);
        sink.prefetch(Containers.ROOT);
        return sink;
    }

    TrieReads reads() {
        return reads;
    }

    @Override
    public void placeFlush(Version current, FileMeta table, VersionEdit edit) {
        Long volume = pendingVolumes.remove(table.number);
        edit.addFile(0, Containers.placement(Containers.ROOT, volume == null ? 0 : volume), table);
    }

    @Override
    public TableSink compactionOutputs(Compaction c, TableWriteContext ctx) {
        Set<Long> inputs = new HashSet<>();
        for (FileMeta f : c.inputFiles()) {
            inputs.add(f.number);
        }
        long stamp = 0;
        for (FileMeta f : c.inputFiles()) {
            stamp = Math.max(stamp, f.maxSequence);
        }
        return new TrieSink(ctx, this, c.outputLevel(), inputs, stamp);
    }

    /**
     * Merges the inputs group by group: a group is the inputs at or below one container of the top input
     * level, written back into that container (in place: a pile merge, a garbage collection, or a
     * compactRange pulling a small subtree up) or pushed down to its children. Tombstones go where a
     * group's whole subtree is merged in place, since nothing older can hide below it.
     */
    @Override
    public VersionEdit runCompaction(Compaction c, TableSource tables, long[] snapshots, TableSink out)
            throws IOException {
        TrieSink sink = (TrieSink) out;
        VersionEdit edit = new VersionEdit();
        Version v = sink.baseVersion();
        PileIndex idx = piles(v);
        Plan plan = plans.remove(c);
        int top = plan != null ? plan.level : Integer.MAX_VALUE;
        Set<Long> inputs = new HashSet<>();
        for (Compaction.Input in : c.inputs()) {
            top = Math.min(top, in.level());
            inputs.add(in.file().number);
        }
        Map<Long, List<FileMeta>> groups = new LinkedHashMap<>();
        for (Compaction.Input in : c.inputs()) {
            edit.deleteFile(in.level(), in.file().number);
            long container = Containers.containerOf(v.placement(in.file().number));
            groups.computeIfAbsent(Containers.ancestor(container, top), k -> new ArrayList<>()).add(in.file());
        }
        Set<Long> inPlace = new HashSet<>();
        for (Map.Entry<Long, List<FileMeta>> group : groups.entrySet()) {
            long g = group.getKey();
            boolean here = plan != null ? plan.inPlace.contains(g) : c.outputLevel() == top;
            if (here) {
                inPlace.add(g);
            }
            boolean whole = here && allInputs(idx.pile(g), inputs) && allInputs(idx.below(g), inputs);
            sink.level(here ? top : top + 1, group.getValue());
            sink.prefetch(here ? new long[] {g} : Containers.children(g));
            HashMerge.run(group.getValue(), tables, snapshots, whole, sink);
            sink.finishStreams();
        }
        List<TrieSink.Placed> placed = sink.finishPlaced();
        Map<Long, List<FileMeta>> written = new LinkedHashMap<>();
        for (TrieSink.Placed p : placed) {
            edit.addFile(Containers.level(p.placement()), p.placement(), p.meta());
            pendingVolumes.remove(p.meta().number);
            written.computeIfAbsent(Containers.containerOf(p.placement()), k -> new ArrayList<>()).add(p.meta());
        }
        Set<Long> sampled = new HashSet<>();
        for (long container : written.keySet()) {
            if (Containers.level(container) == depth - 1) {
                sampled.add(container);
            }
        }
        for (long g : inPlace) {
            if (Containers.level(g) == depth - 1) {
                sampled.add(g);
            }
        }
        for (long container : sampled) {
            List<FileMeta> pile = new ArrayList<>(written.getOrDefault(container, List.of()));
            pile.sort(PileIndex.NEWEST_FIRST);
            for (FileMeta f : idx.pile(container)) {
                if (!inputs.contains(f.number)) {
                    pile.add(f);
                }
            }
            int perMille = (int) Math.round(1000 * GarbageSampler.estimate(pile, tables));
            edit.schemeRecord(new TrieRecords.Garbage(container, perMille).encode());
        }
        return edit;
    }

    private static boolean allInputs(List<FileMeta> files, Set<Long> inputs) {
        for (FileMeta f : files) {
            if (!inputs.contains(f.number)) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ reads

    @Override
    public void candidates(Version v, byte[] key, List<FileMeta> out) {
        PileIndex idx = piles(v);
        long hi = hash.hi(key);
        for (int level = 0; level < depth; level++) {
            out.addAll(idx.pile(Containers.id(level, KeyHash.path(hi, level))));
        }
    }

    /** Probes one pile per level ({@link PileProbe}). */
    @Override
    public boolean get(Version v, byte[] key, long seq, TableSource tables, boolean fillCache, Lookup out,
            EngineCounters counters) throws IOException {
        return PileProbe.get(piles(v), hash, depth, key, seq, tables, fillCache, out, counters);
    }

    @Override
    public List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) {
        throw new UnsupportedOperationException("cursors are not supported by LSM_TRIE stores: LSM_TRIE keeps no key"
                + " order on disk (tables are hash tables); use get for point reads");
    }

    // ------------------------------------------------------------------ compaction picking

    /**
     * The most urgent of: a pile above the last level holding its trigger's worth of data, whose oldest
     * tables are pushed down to its children (the paper's compaction); a pile of {@code 2 * pileTrigger}
     * tables holding less ({@link #SMALL_PILE_TABLES} if less than one full table), merged in place into
     * one batch, since pushing small data down would give each child a small table of its own; a
     * last-level pile whose sampled garbage passed the ratio, garbage-collected in place.
     */
    @Override
    public Compaction pick(Version v, Set<Long> busy) {
        PileIndex idx = piles(v);
        long best = -1;
        double bestScore = 0;
        boolean bestInPlace = false;
        for (long c : idx.containers()) {
            int level = Containers.level(c);
            List<FileMeta> pile = idx.pile(c);
            if (anyBusy(pile, busy)) {
                continue;
            }
            boolean parentBusy = level > 0 && anyBusy(idx.pile(Containers.parent(c)), busy);
            double score;
            boolean inPlace;
            if (level < depth - 1) {
                score = idx.volume(c) / triggerVolume;
                inPlace = score < 1;
                if (inPlace) {
                    double limit = idx.volume(c) < tableCapacity ? SMALL_PILE_TABLES : 2.0 * pileTrigger;
                    score = pile.size() / limit;
                }
                if (score < 1 || (inPlace ? parentBusy : childMergingInPlace(c, busy))) {
                    continue;
                }
            } else {
                Integer g;
                synchronized (this) {
                    g = garbage.get(c);
                }
                score = g == null ? 0 : g / 1000.0 / gcRatio;
                inPlace = true;
                if (score < 1 || parentBusy) {
                    continue;
                }
            }
            if (score > bestScore) {
                best = c;
                bestScore = score;
                bestInPlace = inPlace;
            }
        }
        if (best < 0) {
            return null;
        }
        int level = Containers.level(best);
        String reason = !bestInPlace ? "pile of " : level == depth - 1 ? "garbage collection of " : "pile merge of ";
        Compaction c = compaction(bestInPlace ? idx.pile(best) : oldest(idx, best), level,
                bestInPlace ? level : level + 1, reason + Containers.name(best));
        inPlaceMerges.picked(best, c, bestInPlace);
        return c;
    }

    /**
     * The oldest tables of a pile up to the drain limit (at least one). Draining a pile's oldest part
     * keeps every invariant: pile order is per-key recency, so the drained versions are older than
     * the ones left behind and newer than anything the children hold. With one table per child
     * (pileTrigger under 16) the limit follows the items of the tables drained ({@link #drainFill}),
     * counted as the sink counts them, so a child filled closer to a full table still gets one table;
     * with more, every child gets parts cut by hash bits, which the fixed margins size.
     */
    private List<FileMeta> oldest(PileIndex idx, long container) {
        List<FileMeta> pile = idx.pile(container);
        int tablesPerChild = Math.max(1, pileTrigger / 8);
        double fill = tablesPerChild == 1 ? MAX_DRAIN_FILL : DRAIN_FILL;
        double limit = fill * 8 * tableCapacity * tablesPerChild;
        List<FileMeta> out = new ArrayList<>();
        long sum = 0;
        long items = 0;
        for (int i = pile.size() - 1; i >= 0; i--) {
            FileMeta f = pile.get(i);
            long volume = Containers.dataBytesOf(idx.version.placement(f.number));
            if (!out.isEmpty() && sum + volume > limit) {
                break;
            }
            out.add(f);
            sum += volume;
            items += f.entries;
        }
        // Drop the newest until the drained tables fit their own fill (prefix sums only fall).
        while (tablesPerChild == 1 && out.size() > 1
                && sum > drainFill(itemsPerTable(tableCapacity, items, sum)) * 8 * tableCapacity) {
            FileMeta f = out.remove(out.size() - 1);
            sum -= Containers.dataBytesOf(idx.version.placement(f.number));
            items -= f.entries;
        }
        return out;
    }

    /** Items a table of {@code capacity} holds at the density of {@code items} in {@code bytes} (0 if unknown). */
    static long itemsPerTable(long capacity, double items, long bytes) {
        return bytes <= 0 ? 0 : (long) (capacity * items / bytes);
    }

    /**
     * The fill a drain aims each child at, for full tables of {@code itemsPerTable} items: four spreads of
     * a child's share below 1.0 (a child then rarely passes a full table, and up to the buckets' whole
     * payload one table still holds it), never below {@link #DRAIN_FILL} nor above {@link #MAX_DRAIN_FILL}.
     */
    static double drainFill(long itemsPerTable) {
        if (itemsPerTable <= 0) {
            return DRAIN_FILL;
        }
        return Math.max(DRAIN_FILL, Math.min(MAX_DRAIN_FILL, 1 - 4 * shareSpread(itemsPerTable)));
    }

    /**
     * The relative standard deviation of one child's share when 8 {@code n} items are hashed to 8
     * children (binomial, p = 1/8): sqrt(7 / (8 n)).
     */
    static double shareSpread(long n) {
        return Math.sqrt(7.0 / (8.0 * n));
    }

    private static Compaction compaction(List<FileMeta> files, int level, int outputLevel, String reason) {
        List<Compaction.Input> inputs = new ArrayList<>(files.size());
        for (FileMeta f : files) {
            inputs.add(new Compaction.Input(level, f));
        }
        return new Compaction(inputs, outputLevel, false, null, null, reason);
    }

    /** A push onto a pile merged in place waits for that merge; one onto a draining pile does not. */
    private boolean childMergingInPlace(long c, Set<Long> busy) {
        for (int i = 0; i < 8; i++) {
            if (inPlaceMerges.running(Containers.child(c, i), busy)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyBusy(List<FileMeta> files, Set<Long> busy) {
        for (FileMeta f : files) {
            if (busy.contains(f.number)) {
                return true;
            }
        }
        return false;
    }

    /**
     * compactRange ignores the range (keys have no order here) and goes down the trie one level per
     * call. A container whose subtree holds more than a pile's trigger is pushed down whole, as the
     * paper's compaction would; any other container (every one at the last level) takes its whole
     * subtree in place, dropping shadowed versions and tombstones. A store so ends with each key's data
     * in one container, and small stores stay near the root instead of being spread over thousands of
     * last-level containers with a table each.
     */
    @Override
    public Compaction pickManual(Version v, int level, byte[] from, byte[] to) {
        if (level >= depth) {
            return null;
        }
        PileIndex idx = piles(v);
        List<Compaction.Input> inputs = new ArrayList<>();
        Set<Long> inPlace = new HashSet<>();
        for (long c : idx.subtreesAt(level)) {
            boolean here = level == depth - 1 || idx.subtreeVolume(c) <= triggerVolume;
            if (here) {
                inPlace.add(c);
                for (FileMeta f : idx.below(c)) {
                    inputs.add(new Compaction.Input(Containers.level(Containers.containerOf(v.placement(f.number))), f));
                }
            }
            for (FileMeta f : idx.pile(c)) {
                inputs.add(new Compaction.Input(level, f));
            }
        }
        if (inputs.isEmpty()) {
            return null;
        }
        Compaction c = new Compaction(inputs, Math.min(level + 1, depth - 1), false, null, null, "manual");
        plans.put(c, new Plan(level, inPlace));
        return c;
    }

    @Override
    public WritePressure pressure(Version v) {
        PileIndex idx = piles(v);
        return WritePressure.of((double) idx.rootVolume() / tableCapacity, pileSlowdown, pileStop);
    }

    @Override
    public void onCompacted(Compaction c, VersionEdit edit) {
        // runCompaction already added the garbage estimates.
    }

    // ------------------------------------------------------------------ scheme state

    @Override
    public synchronized void apply(byte[] record) {
        if (record.length == 0) {
            throw new IllegalStateException("empty LSM_TRIE scheme record");
        }
        if (record[0] == TrieRecords.SHAPE) {
            TrieRecords.Shape shape = TrieRecords.Shape.decode(record);
            if (shape.depth() != depth || bucketsRequested && shape.buckets() != buckets) {
                throw new IllegalArgumentException("this LSM_TRIE store was created with TrieOptions.depth " + shape.depth()
                        + " and TrieOptions.tableBuckets " + shape.buckets() + "; open it with those, or without"
                        + " tableBuckets (got " + depth + " and " + (bucketsRequested ? buckets : "none") + ")");
            }
            // Placements and clusters depend on the bucket count: a store keeps the one it was made with.
            size(shape.buckets());
            if (requestedSeed != null && requestedSeed.longValue() != shape.seed()) {
                // Every key's place in the trie comes from this hash: another seed would look in the wrong
                // containers and miss keys.
                throw new IllegalArgumentException("this LSM_TRIE store was created with TrieOptions.hashSeed "
                        + shape.seed() + "; open it with that seed or without one (got " + requestedSeed + ")");
            }
            hash = new KeyHash(shape.seed());
        } else if (record[0] == TrieRecords.GARBAGE) {
            TrieRecords.Garbage g = TrieRecords.Garbage.decode(record);
            garbage.put(g.container(), g.perMille());
        } else {
            throw new IllegalStateException("unknown LSM_TRIE scheme record type " + record[0]);
        }
    }

    /**
     * The root pile newest first; deeper levels by smallest key (lookups go through the containers'
     * piles, not this order).
     */
    @Override
    public Comparator<FileMeta> tableOrder(int level) {
        return level == 0 ? FileMeta.NEWEST_FIRST : FileMeta.BY_SMALLEST_KEY;
    }

    @Override
    public synchronized List<byte[]> snapshot() {
        List<byte[]> out = new ArrayList<>();
        out.add(new TrieRecords.Shape(hash.seed(), depth, buckets).encode());
        for (Map.Entry<Long, Integer> e : garbage.entrySet()) {
            out.add(new TrieRecords.Garbage(e.getKey(), e.getValue()).encode());
        }
        return out;
    }
}
