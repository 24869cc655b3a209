package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.TableFinisher;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.WrittenTable;
import io.bellows.engine.internal.table.htable.ClusterFilters;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.table.htable.HTableProperties;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HTableWriter;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.table.htable.TableFilters;
import io.bellows.engine.internal.util.Futures;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the entries of a flush or compaction into HTables of the containers at a trie level, each
 * entry to the container its hash names; each table is sized by what it holds. A container's stream
 * cuts a new table only between user keys when the next key would pass the 95% fill limit of a full
 * table; the BloomCluster of a stream's last table covers the container's
 * pile as of the version this sink started from (minus the tables being compacted away) plus the
 * tables written before it in this stream; the stream's other tables cluster their own filters only.
 *
 * <p>Not thread-safe; one per flush or compaction.
 */
final class TrieSink implements TableSink {
    /** A finished table with the placement it is installed at. */
    record Placed(FileMeta meta, long placement) {}

    /** Bucket field (a 1/16 share of its range) past which a compaction's table is sized and streamed. */
    static final long SIZING_FIELD = 1L << 28;
    /**
     * Room above the inputs' volume a container's parts are counted with. A count of two drops to one
     * when the expected data plus three spreads of a child's share ({@link TrieScheme#shareSpread}, less
     * than this margin for tables of many items) fits one table, so a child a drain fills to
     * {@link TrieScheme#drainFill} gets one table.
     */
    static final double PART_MARGIN = 1.03;

    private final TableWriteContext ctx;
    private final TrieScheme scheme;
    private final KeyHash hash;
    private int level;
    private final Set<Long> excluded;
    private final long stampFloor;
    private final Version base;
    private PileIndex baseIndex;
    /**
     * Open streams in the order they opened, which is the order their tables are numbered in. A map keyed
     * by container would box the id per entry below the root; a scan over so few is cheap: a flush writes
     * one container, a compaction's group one or its eight children.
     */
    private long[] openIds = new long[8];
    private Stream[] openStreams = new Stream[8];
    private int openCount;
    private final List<Placed> placed = new ArrayList<>();
    /** Every table written, for its reader once it is durable. */
    private final List<HTableProperties> written = new ArrayList<>();
    private final List<Long> created = new ArrayList<>();
    /** Data the current group's inputs can give each container it writes ({@link #level}). */
    private final Map<Long, Long> expected = new HashMap<>();
    /** The items of that data (an eighth of an input's for each child). */
    private final Map<Long, Double> expectedItems = new HashMap<>();
    /** Whether entries come in hash order (a compaction's), not key order (a flush's). */
    private boolean hashOrdered;
    /** Pile filters read ahead ({@link #prefetch}), by container. */
    private final Map<Long, CompletableFuture<List<TableFilters>>> prefetched = new HashMap<>();
    /** The files handed to the engine's finisher to sync and close; null: synced here. */
    private final TableFinisher.Batch finishing;
    private boolean released;

    /**
     * @param excluded tables being compacted away (left out of the BloomClusters written)
     * @param stampFloor the highest recorded maximum sequence of the inputs; see {@link Stream#finish}
     */
    TrieSink(TableWriteContext ctx, TrieScheme scheme, int level, Set<Long> excluded, long stampFloor) {
        this.ctx = ctx;
        this.scheme = scheme;
        this.hash = scheme.hash();
        this.level = level;
        this.excluded = excluded;
        this.stampFloor = stampFloor;
        this.base = ctx.versions().acquireCurrent();
        this.finishing = ctx.finisher() == null ? null : ctx.finisher().batch();
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) throws IOException {
        long hi = hash.hi(key);
        stream(hi).add(key, seq, kind, value, hi, hash.lo(key));
    }

    /**
     * As {@link #add(byte[], long, int, byte[])} for views valid during the call (a flush's): the key is
     * hashed in place, and only what the table keeps until it is written is copied out.
     */
    @Override
    public void add(Slice key, long seq, int kind, Slice value) throws IOException {
        byte[] b = key.array();
        int off = key.offset();
        int len = key.length();
        long hi = hash.hi(b, off, len);
        stream(hi).add(key, seq, kind, value, hi, hash.lo(b, off, len));
    }

    /**
     * {@link #add(Slice, long, int, Slice)} of an entry whose hash under {@link #hashSeed} the caller has (a
     * compaction's input, read through views as a flush's is).
     */
    void addHashed(Slice key, long seq, int kind, Slice value, long hi, long lo) throws IOException {
        hashOrdered = true;
        Stream s = stream(hi);
        s.add(key, seq, kind, value, hi, lo);
        s.maybeStream(hi);
    }

    private Stream stream(long hi) {
        long c = Containers.id(level, KeyHash.path(hi, level));
        for (int i = 0; i < openCount; i++) {
            if (openIds[i] == c) {
                return openStreams[i];
            }
        }
        if (openCount == openIds.length) {
            openIds = Arrays.copyOf(openIds, 2 * openCount);
            openStreams = Arrays.copyOf(openStreams, 2 * openCount);
        }
        Long expect = expected.get(c);
        long full = HTableFormat.capacity(scheme.buckets());
        int parts = expect == null ? 1 : (int) Math.min(256, Math.max(1, (long) Math.ceil(expect * PART_MARGIN / full)));
        if (parts == 2) {
            // One table if three spreads of a many-item child's share still fit: parts cut by hash bits
            // are not the case here, whose uneven shares the fixed margin covers.
            long n = TrieScheme.itemsPerTable(full, expectedItems.getOrDefault(c, 0.0), expect);
            if (n > 0 && expect * (1 + 3 * TrieScheme.shareSpread(n)) <= full) {
                parts = 1;
            }
        }
        Stream s = new Stream(c, parts);
        openIds[openCount] = c;
        openStreams[openCount++] = s;
        return s;
    }

    /**
     * Sends the entries added from now on to the containers of {@code level} (a compaction writes some
     * groups in place and pushes others down), which expect at most the data of {@code inputs} (each
     * input's whole volume goes to its container's ancestor at that level, or an eighth of it to each child
     * of a container just above). Call between {@link #finishStreams} and the next add.
     */
    void level(int level, List<FileMeta> inputs) {
        this.level = level;
        expected.clear();
        expectedItems.clear();
        for (FileMeta f : inputs) {
            long placement = base.placement(f.number);
            long c = Containers.containerOf(placement);
            long volume = Containers.dataBytesOf(placement);
            if (Containers.level(c) >= level) {
                expect(Containers.ancestor(c, level), volume, f.entries);
            } else {
                for (long child : Containers.children(Containers.ancestor(c, level - 1))) {
                    expect(child, volume / 8, f.entries / 8.0);
                }
            }
        }
    }

    /** Adds {@code bytes} of {@code items} to what {@code container} may receive from the current group. */
    void expect(long container, long bytes, double items) {
        expected.merge(container, bytes, Long::sum);
        expectedItems.merge(container, items, Double::sum);
    }

    long hashSeed() {
        return hash.seed();
    }

    TrieReads reads() {
        return scheme.reads();
    }

    /**
     * Starts reading the filters of these containers' piles, which the batch written onto each needs for
     * its BloomCluster, so that they arrive while the inputs are merged instead of one after another at
     * the end.
     */
    void prefetch(long... containers) {
        for (long c : containers) {
            if (!prefetched.containsKey(c)) {
                List<FileMeta> pile = baseIndex().pile(c);
                prefetched.put(c, reads().start(() -> readPileFilters(pile)));
            }
        }
    }

    /** The version this sink started from (retained until it finishes or is abandoned). */
    Version baseVersion() {
        return base;
    }

    /** Writes out every open stream (the end of one input container's merge keeps memory bounded). */
    void finishStreams() throws IOException {
        for (int i = 0; i < openCount; i++) {
            openStreams[i].finish();
            openStreams[i] = null;
        }
        openCount = 0;
    }

    /** Finished tables with their placements; finishes open streams first. */
    List<Placed> finishPlaced() throws IOException {
        finishStreams();
        if (finishing != null) {
            finishing.await();
        }
        if (!placed.isEmpty()) {
            ctx.fs().syncDirectory(ctx.dir());
        }
        FilterPageCache cache = scheme.filterCache();
        for (HTableProperties p : written) {
            if (cache != null) {
                // From what the writer kept (HTableProperties#meta): opening a compaction input from its file
                // took four reads, most of an LSM_TRIE compaction thread's reads at factor 64 (small tables).
                WrittenTable w = (file, path, number, blocks, counters) -> HTableReader.open(p.meta(), file, path,
                        number, cache, blocks, counters);
                ctx.tables().adopt(p.number(), w);
            }
        }
        written.clear();
        release();
        return placed;
    }

    @Override
    public List<FileMeta> finish() throws IOException {
        List<FileMeta> out = new ArrayList<>();
        for (Placed p : finishPlaced()) {
            out.add(p.meta());
        }
        return out;
    }

    @Override
    public List<Long> created() {
        return created;
    }

    @Override
    public void abandon() {
        for (int i = 0; i < openCount; i++) {
            if (openStreams[i] != null) {
                openStreams[i].closeQuietly();
            }
        }
        release();
        if (finishing != null) {
            // Deleted only once the finisher is done with them.
            finishing.awaitQuietly();
        }
        for (long n : created) {
            ctx.tables().discard(n);
            try {
                ctx.fs().delete(FileNames.table(ctx.dir(), n));
            } catch (IOException ignored) {
                // left behind as an orphan; the next open's sweep removes it
            }
        }
    }

    private void release() {
        if (!released) {
            released = true;
            // Reads ahead end before the version naming their tables is let go.
            for (CompletableFuture<List<TableFilters>> f : prefetched.values()) {
                Futures.awaitQuietly(f);
            }
            base.release();
        }
    }

    private PileIndex baseIndex() {
        if (baseIndex == null) {
            baseIndex = scheme.piles(base);
        }
        return baseIndex;
    }

    /**
     * Filters of a pile of the base version, newest first, without the inputs: from the BloomCluster of
     * the newest of them, which holds the filters of every table under it (one read instead of one per
     * table); a table it does not list gives its own. Runs on a read thread too: it touches nothing
     * this sink changes.
     */
    private List<TableFilters> readPileFilters(List<FileMeta> pile) throws IOException {
        List<TableFilters> out = new ArrayList<>();
        Map<Long, TableFilters> clustered = null;
        for (FileMeta f : pile) {
            if (excluded.contains(f.number)) {
                continue;
            }
            if (clustered == null) {
                clustered = ClusterFilters.read(ctx.tables().reader(f, HTableReader.class));
            }
            TableFilters t = clustered.get(f.number);
            out.add(t != null ? t : ctx.tables().reader(f, HTableReader.class).filters());
        }
        return out;
    }

    /**
     * The tables one container receives from this sink. A compaction expected to write it more than a full
     * table splits its entries into parts by hash bits 39..32 (used by nothing else), one table per part,
     * so that each part's entries still cover the whole bucket field: each can be streamed a window at a
     * time, and each balances within its windows. A batch's tables never share a key, so they need no
     * order among themselves.
     */
    private final class Stream {
        private final long container;
        private final Part[] parts;
        private final List<HTableProperties> written = new ArrayList<>();
        private List<TableFilters> pileFilters;
        private long maxSeq;

        Stream(long container, int parts) {
            this.container = container;
            this.parts = new Part[parts];
            for (int i = 0; i < parts; i++) {
                this.parts[i] = new Part(this);
            }
        }

        private Part part(long hi) {
            return parts.length == 1 ? parts[0] : parts[(int) ((((hi >>> 32) & 0xff) * parts.length) >>> 8)];
        }

        void add(byte[] key, long seq, int kind, byte[] value, long hi, long lo) throws IOException {
            part(hi).add(key, seq, kind, value, hi, lo);
            maxSeq = Math.max(maxSeq, seq);
        }

        void add(Slice key, long seq, int kind, Slice value, long hi, long lo) throws IOException {
            part(hi).add(key, seq, kind, value, hi, lo);
            maxSeq = Math.max(maxSeq, seq);
        }

        void maybeStream(long hi) throws IOException {
            part(hi).maybeStream(hi);
        }

        void closeQuietly() {
            for (Part p : parts) {
                p.closeQuietly();
            }
        }

        private List<TableFilters> pileFilters() throws IOException {
            if (pileFilters == null) {
                CompletableFuture<List<TableFilters>> ahead = prefetched.get(container);
                pileFilters = ahead != null ? TrieReads.join(ahead) : readPileFilters(baseIndex().pile(container));
            }
            return pileFilters;
        }

        void finish() throws IOException {
            // The batch's last table, whose BloomCluster covers the others, must sort first: have its highest
            // number. Streamed parts took theirs when they started, collected ones take theirs as written.
            List<Part> open = new ArrayList<>();
            for (Part p : parts) {
                if (p.writer != null && !p.writer.isEmpty()) {
                    open.add(p);
                }
            }
            open.sort((a, b) -> a.file != null && b.file != null ? Long.compare(a.number, b.number)
                    : Boolean.compare(a.file == null, b.file == null));
            for (int i = 0; i < open.size(); i++) {
                open.get(i).writeTable(i == open.size() - 1);
            }
            // Every table of the batch records the same stamp: the highest of the batch's own sequences and
            // of its inputs' stamps. Stamps so grow with every batch a container receives (inputs drain
            // oldest first), and within a batch the table written last, whose BloomCluster covers the
            // others, sorts first (PileIndex).
            long stamp = Math.max(maxSeq, stampFloor);
            for (HTableProperties p : written) {
                FileMeta meta = new FileMeta(p.number(), p.fileSize(), p.smallestKey(), p.smallestSeq(),
                        p.largestKey(), p.largestSeq(), p.entries(), stamp);
                placed.add(new Placed(meta, Containers.placement(container, p.dataBytes())));
                scheme.noteVolume(p.number(), p.dataBytes());
            }
        }
    }

    /** One part of a container's stream: the tables of its share of the keys, one at a time. */
    private final class Part {
        private final Stream stream;
        private HTableWriter writer;
        /** The file and number of a table being streamed ({@link #maybeStream}); null before. */
        private WritableFile file;
        private long number;
        private boolean sized;
        /** Whether a table of this part was cut by fill (its entries then cover part of the bucket field). */
        private boolean cut;

        Part(Stream stream) {
            this.stream = stream;
        }

        void add(byte[] key, long seq, int kind, byte[] value, long hi, long lo) throws IOException {
            add(key, 0, key.length, value, 0, value == null ? 0 : value.length, seq, kind, hi, lo);
        }

        /** The writer packs each entry's bytes as it comes, so views valid during the call will do. */
        void add(Slice key, long seq, int kind, Slice value, long hi, long lo) throws IOException {
            add(key.array(), key.offset(), key.length(), value.array(), value.offset(), value.length(), seq, kind, hi,
                    lo);
        }

        private void add(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen, long seq,
                int kind, long hi, long lo) throws IOException {
            boolean newKey = writer == null || !writer.isLastKey(key, keyOff, keyLen);
            prepare(newKey, keyLen, valueLen, seq, kind);
            writer.add(key, keyOff, keyLen, value, valueOff, valueLen, seq, kind, hi, lo);
        }

        /**
         * Once a compaction's entries, which come in hash order, have passed {@link #SIZING_FIELD} in the
         * bucket field, sizes this part's table by what they hold and streams it from then on
         * ({@link HTableWriter#stream}): the writer then holds one balancing window instead of the whole
         * table. Keys hash uniformly, so the share seen predicts the whole; the margin, three standard
         * deviations of the count seen plus 1%, keeps a table sized short from moving items to its overflow
         * area. A table of one window gains nothing from it, and one larger than the buckets of a full table
         * (more than the compaction expected) is cut by fill.
         */
        void maybeStream(long hi) throws IOException {
            long field = hi & 0xffffffffL;
            if (sized || field < SIZING_FIELD || cut) {
                return;
            }
            sized = true;
            double margin = 1.01 + 3 / Math.sqrt(writer.entries());
            double projected = writer.dataBytes() * (double) (1L << 32) / (field + 1) * margin;
            int buckets = scheme.buckets();
            long full = HTableFormat.capacity(buckets);
            // Up to the buckets' whole payload a full table still holds it: its fill limit leaves 5% spare.
            if (projected > full / HTableFormat.MAX_FILL) {
                return;
            }
            int n = HTableFormat.bucketsFor(buckets, Math.min((long) projected, full));
            if (n > HTableFormat.WINDOW_BUCKETS) {
                open();
                writer.stream(file, n);
            }
        }

        private void open() throws IOException {
            number = ctx.versions().newFileNumber();
            ctx.pendingOutputs().add(number);
            created.add(number);
            WritableFile f = ctx.fs().createTable(FileNames.table(ctx.dir(), number));
            file = finishing != null ? finishing.track(f) : f;
        }

        /** Closes a streamed table's file left open by a failure (abandon deletes it). */
        void closeQuietly() {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException | RuntimeException ignored) {
                    // already failing
                }
                file = null;
            }
        }

        /** Cuts the table before a new key that would overfill it, and opens one if none is. */
        private void prepare(boolean newKey, int keyLength, int valueLength, long seq, int kind) throws IOException {
            if (writer != null && newKey && !writer.isStreaming()) {
                int size = HTableFormat.itemSize(keyLength, valueLength, seq, kind == InternalKeys.KIND_DELETE);
                if (writer.wouldOverfill(size)) {
                    cut = true;
                    writeTable(false);
                }
            }
            if (writer == null) {
                writer = new HTableWriter(hash, scheme.buckets(), scheme.bloomBitsPerKey());
            }
        }

        /**
         * Only the batch's last table, which sorts first in the pile, gets the BloomCluster of the whole
         * pile: a get reads the cluster of the pile's newest table, and a pile drains oldest first, so the
         * clusters of the batch's other tables would never be read. They cluster their own filters only;
         * covering the pile in each would write filter bytes quadratic in the batch (a flush of 9 tables
         * onto a root pile of 10 wrote 135 filter copies instead of 27, each table's own included).
         */
        private void writeTable(boolean last) throws IOException {
            List<TableFilters> older = new ArrayList<>();
            if (last) {
                for (int i = stream.written.size() - 1; i >= 0; i--) {
                    older.add(stream.written.get(i).filters());
                }
                older.addAll(stream.pileFilters());
            }
            if (cut && hashOrdered) {
                // Entries in hash order cut by fill cover only part of the bucket field: such a table
                // balances across all its buckets, as tables did before windows.
                writer.balanceWhole();
            }
            if (file == null) {
                open();
            }
            HTableProperties p;
            try {
                // Only the cluster gets read (the batch's last table's), and below the root only: the root pile's
                // newest table changes with every flush, and caching each flush's cluster cost more than it saved.
                boolean warm = last && Containers.level(stream.container) > 0;
                p = writer.write(file, number, older, warm ? scheme.filterCache() : null);
            } catch (IOException | RuntimeException e) {
                // abandon() deletes the file
                closeQuietly();
                throw e;
            } finally {
                file = null;
            }
            ctx.bytesWritten().add(p.fileSize());
            stream.written.add(p);
            TrieSink.this.written.add(p);
            writer = null;
        }
    }
}
