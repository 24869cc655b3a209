package io.bellows.engine.internal.table.htable;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Reads an HTable (spec: docs/formats/htable.md). Opening reads the footer and metadata once: the
 * BloomCluster run index, the migration metadata of the most migrated buckets and the overflow index
 * (keys of the few items stored outside buckets). A lookup then reads the key's home bucket, or goes
 * straight to where the in-memory metadata says the key moved, and follows a bucket's own trailer
 * when the key ranks at or above its HashMark.
 *
 * <p>Thread safety: immutable after open; safe for concurrent lookups.
 */
public final class HTableReader implements OpenTable {
    private final ReadableFile file;
    private final Path path;
    private final long number;
    private final FilterPageCache filterCache;
    /** Verified buckets, keyed by (table number, file offset): the engine's block cache. */
    private final BlockCache blockCache;
    private final EngineCounters counters;
    private final KeyHash hash;
    private final int buckets;
    private final long entries;
    private final long dataBytes;
    private final long overflowOffset;
    private final long filtersOffset;
    private final int filtersLength;
    private final int filtersCrc;
    private final long clusterOffset;
    /** Boxes of this table's BloomCluster: its bucket count or, in a pile of larger tables, theirs. */
    private final int clusterColumns;
    private final int window;
    /** First bucket and page count of each BloomCluster run; runStart is in pages from clusterOffset. */
    private final int[] runFirst;
    private final int[] runStart;
    private final int[] runPages;
    /** In-memory migration metadata, sorted by source bucket. */
    private final int[] hotSource;
    private final int[] hotDest;
    private final int[] hotMark;
    /** Overflow items in internal-key order, values read on demand. */
    private final byte[][] overflowKeys;
    private final long[] overflowSeqs;
    private final int[] overflowKinds;
    /** Each overflow item's file offset, encoded length and masked CRC (values are read on demand). */
    private final long[] overflowItemAt;
    private final int[] overflowItemLength;
    private final int[] overflowCrc;
    /** Offset of the value inside its encoded item, and its length. */
    private final int[] overflowValueAt;
    private final int[] overflowValueLength;

    private HTableReader(ReadableFile file, Path path, long number, FilterPageCache filterCache, BlockCache blockCache,
            EngineCounters counters, HTableMeta m) throws IOException {
        this.file = file;
        this.path = path;
        this.number = number;
        this.filterCache = filterCache;
        this.blockCache = blockCache;
        this.counters = counters;
        int version = m.version;
        byte[] meta = m.meta;
        int[] pos = {0};
        int n = meta.length;
        buckets = Coding.getVarInt(meta, pos, n);
        if (buckets < 1 || buckets > HTableFormat.MAX_BUCKETS) {
            throw new IllegalStateException("bucket count " + buckets);
        }
        hash = new KeyHash(Coding.getVarLong(meta, pos, n));
        entries = Coding.getVarLong(meta, pos, n);
        dataBytes = Coding.getVarLong(meta, pos, n);
        overflowOffset = Coding.getVarLong(meta, pos, n);
        int overflowLength = Math.toIntExact(Coding.getVarLong(meta, pos, n));
        filtersOffset = Coding.getVarLong(meta, pos, n);
        filtersLength = Math.toIntExact(Coding.getVarLong(meta, pos, n));
        filtersCrc = (int) Coding.getVarLong(meta, pos, n);
        clusterOffset = Coding.getVarLong(meta, pos, n);
        clusterColumns = version >= 2 ? Coding.getVarInt(meta, pos, n) : buckets;
        if (clusterColumns < buckets || clusterColumns > HTableFormat.MAX_BUCKETS || clusterColumns % buckets != 0) {
            throw new IllegalStateException(clusterColumns + " BloomCluster columns for " + buckets + " buckets");
        }
        window = version >= 3 ? Coding.getVarInt(meta, pos, n) : buckets;
        if (window < 1 || window > buckets) {
            throw new IllegalStateException("balancing window of " + window + " buckets in a table of " + buckets);
        }
        int runs = Coding.getVarInt(meta, pos, n);
        if (runs < 1 || runs > clusterColumns) {
            throw new IllegalStateException(runs + " BloomCluster runs for " + clusterColumns + " columns");
        }
        runFirst = new int[runs];
        runStart = new int[runs];
        runPages = new int[runs];
        int page = 0;
        for (int i = 0; i < runs; i++) {
            runFirst[i] = Coding.getVarInt(meta, pos, n);
            runPages[i] = Coding.getVarInt(meta, pos, n);
            // Runs start at column 0, in order, each of 1 to 0xffff pages (ClusterPacker's limit).
            if ((i == 0 ? runFirst[i] != 0 : runFirst[i] <= runFirst[i - 1]) || runFirst[i] >= clusterColumns
                    || runPages[i] < 1 || runPages[i] > 0xffff) {
                throw new IllegalStateException("BloomCluster run " + i + " at column " + runFirst[i] + " of "
                        + runPages[i] + " pages");
            }
            runStart[i] = page;
            page += runPages[i];
        }
        int hot = Coding.getVarInt(meta, pos, n);
        Integer[] order = new Integer[hot];
        int[] src = new int[hot];
        int[] dst = new int[hot];
        int[] mark = new int[hot];
        for (int i = 0; i < hot; i++) {
            src[i] = Coding.getVarInt(meta, pos, n);
            dst[i] = Coding.getVarInt(meta, pos, n);
            mark[i] = (int) Coding.getVarLong(meta, pos, n);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(src[a], src[b]));
        hotSource = new int[hot];
        hotDest = new int[hot];
        hotMark = new int[hot];
        for (int i = 0; i < hot; i++) {
            hotSource[i] = src[order[i]];
            hotDest[i] = dst[order[i]];
            hotMark[i] = mark[order[i]];
        }
        int overflow = Coding.getVarInt(meta, pos, n);
        overflowKeys = new byte[overflow][];
        overflowSeqs = new long[overflow];
        overflowKinds = new int[overflow];
        overflowItemAt = new long[overflow];
        overflowItemLength = new int[overflow];
        overflowCrc = new int[overflow];
        overflowValueAt = new int[overflow];
        overflowValueLength = new int[overflow];
        byte[] area = overflow == 0 ? Bytes.EMPTY
                : m.overflowArea != null ? m.overflowArea : file.read(overflowOffset, overflowLength);
        for (int i = 0; i < overflow; i++) {
            int at = Coding.getVarInt(meta, pos, n);
            int len = Coding.getVarInt(meta, pos, n);
            overflowCrc[i] = (int) Coding.getVarLong(meta, pos, n);
            overflowItemAt[i] = overflowOffset + at;
            overflowItemLength[i] = len;
            if (at < 0 || len < 0 || at + len > area.length) {
                throw new IllegalStateException("overflow item " + i + " outside the overflow area");
            }
            verifyOverflowItem(i, area, at);
            int[] p = {at};
            int klen = Coding.getVarInt(area, p, at + len);
            long vlen = Coding.getVarLong(area, p, at + len);
            overflowSeqs[i] = Coding.getVarLong(area, p, at + len);
            overflowKeys[i] = Arrays.copyOfRange(area, p[0], p[0] + klen);
            overflowKinds[i] = vlen == 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
            overflowValueAt[i] = p[0] + klen - at;
            overflowValueLength[i] = vlen == 0 ? 0 : (int) (vlen - 1);
            if (overflowValueAt[i] + overflowValueLength[i] != len) {
                throw new IllegalStateException("overflow item " + i + " does not fill its " + len + " bytes");
            }
        }
    }

    private void verifyOverflowItem(int i, byte[] b, int off) {
        if (Checksums.unmask(overflowCrc[i]) != Checksums.crc32c(b, off, overflowItemLength[i])) {
            throw new CorruptionException(path, overflowItemAt[i], "overflow item " + i + " checksum mismatch");
        }
    }

    /** Reads overflow item {@code i} again and returns its value, verified. */
    byte[] overflowValue(int i) throws IOException {
        byte[] item = file.read(overflowItemAt[i], overflowItemLength[i]);
        verifyOverflowItem(i, item, 0);
        return Arrays.copyOfRange(item, overflowValueAt[i], overflowValueAt[i] + overflowValueLength[i]);
    }

    /** Opens the HTable in {@code file} with no bucket cache; on failure the caller still owns (and closes) the file. */
    public static HTableReader open(ReadableFile file, Path path, long number, FilterPageCache filterCache,
            EngineCounters counters) throws IOException {
        return open(file, path, number, filterCache, new BlockCache(0), counters);
    }

    /**
     * Opens the HTable in {@code file}, caching the buckets lookups read in {@code blockCache}; on failure
     * the caller still owns (and closes) the file.
     */
    public static HTableReader open(ReadableFile file, Path path, long number, FilterPageCache filterCache,
            BlockCache blockCache, EngineCounters counters) throws IOException {
        return open(HTableMeta.read(file, path), file, path, number, filterCache, blockCache, counters);
    }

    /** As {@link #open(ReadableFile, Path, long, FilterPageCache, BlockCache, EngineCounters)}, from {@code m}. */
    public static HTableReader open(HTableMeta m, ReadableFile file, Path path, long number,
            FilterPageCache filterCache, BlockCache blockCache, EngineCounters counters) throws IOException {
        try {
            return new HTableReader(file, path, number, filterCache, blockCache, counters, m);
        } catch (IllegalStateException | ArithmeticException | IndexOutOfBoundsException e) {
            throw new CorruptionException(path, m.metaAt, "malformed HTable metadata: " + e.getMessage(), e);
        }
    }

    public long number() {
        return number;
    }

    public KeyHash hash() {
        return hash;
    }

    public int buckets() {
        return buckets;
    }

    /** Columns of this table's BloomCluster; a key's column is {@code KeyHash.bucket(hi, clusterColumns())}. */
    public int clusterColumns() {
        return clusterColumns;
    }

    public long entries() {
        return entries;
    }

    public long dataBytes() {
        return dataBytes;
    }

    /**
     * The encoded bytes of the table's items: each key and value plus the item's three varints (length,
     * length, sequence), about 4 bytes an item with 16-byte keys; the metadata records no finer figure.
     */
    @Override
    public long userDataBytes() {
        return dataBytes;
    }

    /** Items stored in the overflow area. */
    public int overflowItems() {
        return overflowKeys.length;
    }

    /** Buckets whose migration metadata is held in memory. */
    public int hotMetadataBuckets() {
        return hotSource.length;
    }

    /** Point lookup computing the key's hash; {@code fillCache} says whether buckets read join the block cache. */
    @Override
    public boolean get(byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        return get(key, hash.hi(key), hash.lo(key), seq, fillCache, out);
    }

    /** Point lookup computing the key's hash (the per-table path of the table cache). */
    public boolean get(byte[] key, long seq, Lookup out) throws IOException {
        return get(key, seq, true, out);
    }

    /** {@link #get(byte[], long, long, long, boolean, Lookup)} filling the block cache. */
    public boolean get(byte[] key, long hi, long lo, long seq, Lookup out) throws IOException {
        return get(key, hi, lo, seq, true, out);
    }

    /**
     * The newest entry of {@code key} with a sequence at or below {@code seq}, into {@code out}; false if
     * the table has none. {@code hi}/{@code lo} are the key's hash under this table's seed.
     */
    public boolean get(byte[] key, long hi, long lo, long seq, boolean fillCache, Lookup out) throws IOException {
        int overflow = findOverflow(key, seq);
        long bestSeq = overflow >= 0 ? overflowSeqs[overflow] : -1;
        int b = KeyHash.bucket(hi, buckets);
        byte[] page;
        for (int hops = 0; hops <= buckets; hops++) {
            int rank = KeyHash.rank(lo, b);
            int h = Arrays.binarySearch(hotSource, b);
            if (h >= 0 && Integer.compareUnsigned(rank, hotMark[h]) >= 0) {
                if (hotDest[h] == HTableFormat.OVERFLOW_DEST) {
                    break;
                }
                b = hotDest[h];
                continue;
            }
            page = readBucket(b, fillCache);
            int at;
            try {
                at = BucketScan.find(page, key, seq);
            } catch (IllegalStateException e) {
                throw new CorruptionException(path, HTableFormat.bucketOffset(b), "malformed bucket: " + e.getMessage(),
                        e);
            }
            if (at >= 0) {
                // A key's versions share their rank, so they all sit in this one bucket.
                if (BucketScan.sequenceAt(page, at) > bestSeq) {
                    BucketScan.set(page, at, out);
                    return true;
                }
                break;
            }
            int dest = Coding.getShort(page, HTableFormat.DEST_OFFSET);
            if (dest == HTableFormat.NO_DEST
                    || Integer.compareUnsigned(rank, Coding.getInt(page, HTableFormat.MARK_OFFSET)) < 0
                    || dest == HTableFormat.OVERFLOW_DEST) {
                break;
            }
            if (dest >= buckets) {
                throw new CorruptionException(path, HTableFormat.bucketOffset(b) + HTableFormat.DEST_OFFSET,
                        "migration destination " + dest + " outside " + buckets + " buckets");
            }
            b = dest;
        }
        if (overflow < 0) {
            return false;
        }
        byte[] value = null;
        if (overflowKinds[overflow] == InternalKeys.KIND_PUT) {
            value = overflowValue(overflow);
            counters.blockReads.increment();
        }
        out.set(overflowSeqs[overflow], overflowKinds[overflow], value);
        return true;
    }

    /** Index of the newest overflow version of {@code key} at or below {@code seq}, or -1. */
    private int findOverflow(byte[] key, long seq) {
        if (overflowKeys.length == 0) {
            return -1;
        }
        int lo = 0;
        int hi = overflowKeys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKeys.compare(overflowKeys[mid], overflowSeqs[mid], key, seq) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < overflowKeys.length && Arrays.equals(overflowKeys[lo], key) ? lo : -1;
    }

    /** Bucket {@code b}, from the block cache or read and verified (then cached if {@code fillCache}). */
    private byte[] readBucket(int b, boolean fillCache) throws IOException {
        long at = HTableFormat.bucketOffset(b);
        byte[] page = blockCache.getPage(number, at);
        if (page != null) {
            counters.blockCacheHits.increment();
            return page;
        }
        page = file.read(at, HTableFormat.BUCKET_SIZE);
        counters.blockReads.increment();
        verifyBucket(page, 0, b, at);
        if (fillCache) {
            blockCache.putPage(number, at, page);
        }
        return page;
    }

    private void verifyBucket(byte[] b, int off, int bucket, long fileOffset) {
        if (Checksums.unmask(Coding.getInt(b, off + HTableFormat.CRC_OFFSET))
                != Checksums.crc32c(b, off, HTableFormat.CRC_OFFSET)) {
            throw new CorruptionException(path, fileOffset, "bucket " + bucket + " checksum mismatch");
        }
        if (Coding.getShort(b, off + HTableFormat.SOURCE_OFFSET) != bucket) {
            throw new CorruptionException(path, fileOffset + HTableFormat.SOURCE_OFFSET, "bucket " + bucket
                    + " is labelled " + Coding.getShort(b, off + HTableFormat.SOURCE_OFFSET));
        }
    }

    /**
     * The BloomCluster box of column {@code bucket} (below {@link #clusterColumns()}) stored in this
     * table: one page run from the filter cache or the file (counted as a filter-block read).
     */
    public ClusterBox clusterBox(int bucket, boolean fillCache) throws IOException {
        return clusterBox(bucket, fillCache, new ClusterBox());
    }

    /** {@link #clusterBox(int, boolean)} into {@code box} (a get's, reused), allocating nothing on a cache hit. */
    public ClusterBox clusterBox(int bucket, boolean fillCache, ClusterBox box) throws IOException {
        int lo = 0;
        int hi = runFirst.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (runFirst[mid] <= bucket) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int run = lo;
        ClusterRun cached = filterCache.get(number, run);
        long at = clusterOffset + (long) runStart[run] * HTableFormat.BUCKET_SIZE;
        if (cached == null) {
            byte[] page = file.read(at, runPages[run] * HTableFormat.BUCKET_SIZE);
            counters.filterBlockReads.increment();
            checkRun(page, at, 0, run);
            try {
                cached = ClusterRun.of(page);
            } catch (IllegalStateException e) {
                throw new CorruptionException(path, at, "malformed BloomCluster run " + run + ": " + e.getMessage(), e);
            }
            if (fillCache) {
                filterCache.put(number, run, cached);
            }
        }
        int i = bucket - runFirst[run];
        if (i < 0 || i >= cached.boxes()) {
            throw new CorruptionException(path, at, "BloomCluster run " + run + " lacks column " + bucket);
        }
        box.set(cached.page(), cached.boxStart(i), cached.boxEnd(i));
        if (!box.covers(number)) {
            // Every box lists the table it was written with first; a reader must find itself there.
            throw new CorruptionException(path, at, "BloomCluster box of column " + bucket + " lacks table " + number);
        }
        return box;
    }

    /** File offset of the BloomCluster's first run (for tests that damage it). */
    long clusterOffset() {
        return clusterOffset;
    }

    /** Every run of this table's BloomCluster in one read, each run's CRC verified (for {@link ClusterFilters}). */
    ClusterFilters.Area readCluster() throws IOException {
        int pages = runFirst.length == 0 ? 0 : runStart[runFirst.length - 1] + runPages[runFirst.length - 1];
        byte[] area = file.read(clusterOffset, Math.multiplyExact(pages, HTableFormat.BUCKET_SIZE));
        for (int run = 0; run < runFirst.length; run++) {
            checkRun(area, clusterOffset, runStart[run], run);
        }
        return new ClusterFilters.Area(path, clusterOffset, clusterColumns, runFirst, runStart, runPages, area);
    }

    /** Checks the CRC of BloomCluster run {@code run}, at page {@code page} of {@code b} (read from {@code at}). */
    private void checkRun(byte[] b, long at, int page, int run) {
        int start = page * HTableFormat.BUCKET_SIZE;
        int crcAt = start + runPages[run] * HTableFormat.BUCKET_SIZE - ClusterPacker.RUN_TRAILER;
        if (Checksums.unmask(Coding.getInt(b, crcAt)) != Checksums.crc32c(b, start, crcAt - start)) {
            throw new CorruptionException(path, at + start, "BloomCluster run " + run + " checksum mismatch");
        }
    }

    /** This table's own per-bucket filters (to cluster them into newer tables of its container). */
    public TableFilters filters() throws IOException {
        byte[] b = file.read(filtersOffset, filtersLength);
        if (Checksums.unmask(filtersCrc) != Checksums.crc32c(b, 0, b.length)) {
            throw new CorruptionException(path, filtersOffset, "HTable filters checksum mismatch");
        }
        return ClusterFilters.own(number, buckets, b, path, filtersOffset);
    }

    /** The items physically stored in bucket {@code b} (garbage sampling). */
    public List<Entry> bucketItems(int b) throws IOException {
        List<Entry> out = new ArrayList<>();
        parseBucket(readBucket(b, false), 0, HTableFormat.bucketOffset(b), out, false);
        return out;
    }

    /**
     * Every entry of the table in hash order (compaction input), one balancing window at a time (the whole
     * bucket area for a table written before windows), each bucket verified; migrated and overflow items
     * are put back in their home buckets' places. {@code readAhead} reads the next window meanwhile (null:
     * each window is read when the cursor reaches it).
     */
    public HashOrderCursor hashOrderCursor(Executor readAhead) throws IOException {
        return new HashOrderCursor(this, window, readAhead);
    }

    /** Reads buckets {@code [first, first + count)} into {@code into} and verifies each. */
    void readBuckets(int first, int count, byte[] into) throws IOException {
        file.read(HTableFormat.bucketOffset(first), into, 0, count * HTableFormat.BUCKET_SIZE);
        for (int i = 0; i < count; i++) {
            verifyBucket(into, i * HTableFormat.BUCKET_SIZE, first + i, HTableFormat.bucketOffset(first + i));
        }
    }

    /** The failure of malformed bytes in the buckets from {@code bucket} on. */
    CorruptionException corrupt(int bucket, String message, Exception cause) {
        return new CorruptionException(path, HTableFormat.bucketOffset(bucket), message, cause);
    }

    /** Buckets of a balancing window: items migrate only within one (the whole table before version 3). */
    public int window() {
        return window;
    }

    byte[] overflowKey(int i) {
        return overflowKeys[i];
    }

    long overflowSeq(int i) {
        return overflowSeqs[i];
    }

    /** The value length of overflow item {@code i}, -1 for a tombstone. */
    int overflowValueLength(int i) {
        return overflowKinds[i] == InternalKeys.KIND_PUT ? overflowValueLength[i] : -1;
    }

    /** The encoded length of overflow item {@code i}. */
    int overflowItemLength(int i) {
        return overflowItemLength[i];
    }

    /** Reads overflow item {@code i} again into {@code dst[0, length)}, verified; returns where its value starts. */
    int readOverflowItem(int i, byte[] dst) throws IOException {
        file.read(overflowItemAt[i], dst, 0, overflowItemLength[i]);
        verifyOverflowItem(i, dst, 0);
        return overflowValueAt[i];
    }

    /** {@link #iterator()}; the whole table is read once whatever {@code fillCache} says. */
    @Override
    public InternalIterator iterator(boolean fillCache) throws IOException {
        return iterator();
    }

    /** Every entry of the table in internal-key order; reads the whole table once (compaction input). */
    public InternalIterator iterator() throws IOException {
        List<Entry> all = new ArrayList<>((int) Math.min(entries, Integer.MAX_VALUE));
        int chunkBuckets = 256;
        for (int first = 0; first < buckets; first += chunkBuckets) {
            int count = Math.min(chunkBuckets, buckets - first);
            long at = HTableFormat.bucketOffset(first);
            byte[] chunk = file.read(at, count * HTableFormat.BUCKET_SIZE);
            for (int i = 0; i < count; i++) {
                int off = i * HTableFormat.BUCKET_SIZE;
                verifyBucket(chunk, off, first + i, at + off);
                parseBucket(chunk, off, at + off, all, true);
            }
        }
        for (int i = 0; i < overflowKeys.length; i++) {
            byte[] value = overflowKinds[i] == InternalKeys.KIND_PUT ? overflowValue(i) : null;
            all.add(new Entry(overflowKeys[i], overflowSeqs[i], overflowKinds[i], value, 0));
        }
        all.sort(Entry.ORDER);
        return new EntryListIterator(all);
    }

    private void parseBucket(byte[] b, int off, long fileOffset, List<Entry> out, boolean values) {
        int limit = off + HTableFormat.SOURCE_OFFSET;
        int n = Coding.getShort(b, off);
        int[] pos = {off + HTableFormat.COUNT_LENGTH};
        try {
            for (int i = 0; i < n; i++) {
                int start = pos[0];
                int klen = Coding.getVarInt(b, pos, limit);
                long vlen = Coding.getVarLong(b, pos, limit);
                long seq = Coding.getVarLong(b, pos, limit);
                int keyAt = pos[0];
                int valueLength = vlen == 0 ? 0 : (int) (vlen - 1);
                if (keyAt + klen + valueLength > limit) {
                    throw new IllegalStateException("item " + i + " passes the bucket payload");
                }
                byte[] key = Arrays.copyOfRange(b, keyAt, keyAt + klen);
                byte[] value = vlen == 0 ? null
                        : values ? Arrays.copyOfRange(b, keyAt + klen, keyAt + klen + valueLength) : Bytes.EMPTY;
                int kind = vlen == 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
                pos[0] = keyAt + klen + valueLength;
                out.add(new Entry(key, seq, kind, value, pos[0] - start));
            }
        } catch (IllegalStateException e) {
            throw new CorruptionException(path, fileOffset, "malformed bucket: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException ignored) {
            // read-only; nothing to lose
        }
    }
}
