package io.bellows.engine.internal.table.htable;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds one HTable (spec: docs/formats/htable.md). Until its bucket count is chosen it collects entries
 * (up to the capacity of the store's largest table, 95% of its buckets' payload); then it writes the
 * table one balancing window at a time: balances the window's buckets, builds one bloom filter per
 * bucket over the keys hashed to it, and writes them; at the end the overflow area, the table's own
 * filters, the BloomCluster of its container and the metadata follow. The versions of a key must
 * arrive together, newest first: flushes add entries in internal-key order, compactions in hash order
 * ({@link HashOrderCursor}).
 *
 * <p>{@link #write} sizes a table by all it collected. A compaction, whose entries arrive in hash order,
 * can instead {@link #stream} once it knows the size: from then on each window is written as soon as an
 * entry passes it, so the writer holds one window of entries, not the table (the overflow area, the
 * filters and the key range are kept to the end).
 *
 * <p>Not thread-safe.
 */
public final class HTableWriter {
    /** Largest overflow area handed to the reader opened from this writer; a larger one is read back. */
    static final int KEPT_OVERFLOW_BYTES = 64 << 10;
    private final KeyHash hash;
    private final int maxBuckets;
    private final int bloomBitsPerKey;
    /** Every entry while collecting; once writing, the entries of window {@link #nextWindow}. */
    private PackedItems items = new PackedItems();
    private long entries;
    private long dataBytes;
    private long maxSeq;
    /** The least and greatest entries in internal-key order (a compaction adds in hash order). */
    private byte[] firstKey = new byte[16];
    private int firstLength = -1;
    private long firstSeq;
    private byte[] lastKey = new byte[16];
    private int lastLength;
    private long lastSeq;
    /** Chosen when writing starts; {@link #out} is null until then. */
    private int buckets;
    private int window;
    private boolean wholeTable;
    private Out out;
    private int nextWindow;
    private byte[][] filters;
    private int[] dest;
    private int[] mark;
    private long[] moved;
    private final PackedItems overflow = new PackedItems();

    /** @param maxBuckets the bucket count of a full table (TrieOptions.tableBuckets) */
    public HTableWriter(KeyHash hash, int maxBuckets, int bloomBitsPerKey) {
        if (maxBuckets < 1 || maxBuckets > HTableFormat.MAX_BUCKETS) {
            throw new IllegalArgumentException("bucket count " + maxBuckets + " outside [1, " + HTableFormat.MAX_BUCKETS
                    + "]");
        }
        this.hash = hash;
        this.maxBuckets = maxBuckets;
        this.bloomBitsPerKey = bloomBitsPerKey;
    }

    public void add(byte[] key, long seq, int kind, byte[] value, long hi, long lo) throws IOException {
        add(key, 0, key.length, value, 0, value == null ? 0 : value.length, seq, kind, hi, lo);
    }

    /** Adds an entry given as views, valid during the call: its bytes are copied once, packed. */
    public void add(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen, long seq, int kind,
            long hi, long lo) throws IOException {
        int home = -1;
        if (out != null) {
            home = KeyHash.bucket(hi, buckets);
            int w = home / window;
            if (w < nextWindow) {
                throw new IllegalStateException("an entry of bucket " + home + " after its window was written");
            }
            while (nextWindow < w) {
                writeWindow(null, 0, items.count());
            }
        }
        int i = items.add(key, keyOff, keyLen, value, valueOff, valueLen, seq, kind, hi, lo);
        items.setHome(i, home);
        entries++;
        dataBytes += items.size(i);
        maxSeq = Math.max(maxSeq, seq);
        if (firstLength < 0) {
            firstKey = items.keyInto(i, firstKey);
            firstLength = items.keyLength(i);
            firstSeq = seq;
            lastKey = items.keyInto(i, lastKey);
            lastLength = firstLength;
            lastSeq = seq;
        } else if (items.compare(i, firstKey, firstLength, firstSeq) < 0) {
            firstKey = items.keyInto(i, firstKey);
            firstLength = items.keyLength(i);
            firstSeq = seq;
        } else if (items.compare(i, lastKey, lastLength, lastSeq) > 0) {
            lastKey = items.keyInto(i, lastKey);
            lastLength = items.keyLength(i);
            lastSeq = seq;
        }
    }

    /** Whether the entry added last has the key {@code key[off, off + len)}. */
    public boolean isLastKey(byte[] key, int off, int len) {
        int n = items.count();
        return n > 0 && items.keyEquals(n - 1, key, off, len);
    }

    /** Entries added so far. */
    public long entries() {
        return entries;
    }

    /**
     * Balances the table across all its buckets, one window ({@code window} = bucket count), for entries
     * that cover only part of the bucket field (a compaction's table cut by fill): its windows past the
     * last entry would stay empty while the others overflowed. Before writing starts.
     */
    public void balanceWhole() {
        if (out != null) {
            throw new IllegalStateException("the table is already being written");
        }
        wholeTable = true;
    }

    /** Encoded bytes of the items added so far. */
    public long dataBytes() {
        return dataBytes;
    }

    public boolean isEmpty() {
        return entries == 0;
    }

    /** Whether adding {@code extra} more item bytes would pass the table's fill limit. */
    public boolean wouldOverfill(long extra) {
        return dataBytes + extra > HTableFormat.capacity(maxBuckets);
    }

    /** Whether the table is being written window by window ({@link #stream}). */
    public boolean isStreaming() {
        return out != null;
    }

    /**
     * Fixes the table at {@code buckets} (of this store's sizes: {@link HTableFormat#bucketsFor}) and starts
     * writing it to {@code file}, a window whenever an entry passes it. Every entry from now on must come in
     * hash order after those added so far. The table need not hold what it was sized for: a window short
     * of it leaves room, a window over its payload sends the excess to the overflow area.
     */
    public void stream(WritableFile file, int buckets) throws IOException {
        if (out != null) {
            throw new IllegalStateException("already streaming");
        }
        if (buckets < 1 || buckets > maxBuckets || maxBuckets % buckets != 0
                || Integer.bitCount(maxBuckets / buckets) != 1) {
            throw new IllegalArgumentException(buckets + " buckets is not a table size of a store of " + maxBuckets);
        }
        start(file, buckets);
    }

    private void start(WritableFile file, int n) throws IOException {
        buckets = n;
        window = wholeTable ? n : HTableFormat.windowFor(n);
        out = new Out(file);
        filters = new byte[n][];
        dest = new int[n];
        mark = new int[n];
        moved = new long[n];
        byte[] header = Arrays.copyOf(FileHeader.encode(FileHeader.KIND_HTABLE, HTableFormat.VERSION),
                HTableFormat.BUCKET_SIZE);
        out.write(header, 0, header.length);
        // What was collected (in any order) goes to its windows; all but the last are written now, the last
        // is kept as the window being filled.
        int count = items.count();
        int windows = (n + window - 1) / window;
        int[] perWindow = new int[windows + 1];
        int lastWindow = 0;
        for (int i = 0; i < count; i++) {
            int home = KeyHash.bucket(items.hi(i), n);
            items.setHome(i, home);
            int w = home / window;
            perWindow[w + 1]++;
            lastWindow = Math.max(lastWindow, w);
        }
        if (lastWindow == 0) {
            return;
        }
        for (int w = 0; w < windows; w++) {
            perWindow[w + 1] += perWindow[w];
        }
        // A stable counting sort: a key's versions stay together, in the order they came.
        int[] order = new int[count];
        int[] next = Arrays.copyOf(perWindow, windows);
        for (int i = 0; i < count; i++) {
            order[next[items.home(i) / window]++] = i;
        }
        PackedItems collected = items;
        for (int w = 0; w < lastWindow; w++) {
            writeWindow(order, perWindow[w], perWindow[w + 1]);
        }
        PackedItems pending = new PackedItems();
        for (int k = perWindow[lastWindow]; k < perWindow[lastWindow + 1]; k++) {
            pending.add(collected, order[k]);
        }
        items = pending;
    }

    /**
     * Writes the table to {@code file} (the streamed table's own file if it {@link #stream}s), syncs and closes
     * it. {@code older} are the tables below it in its container's pile, newest first; their filters join
     * this table's in its BloomCluster.
     */
    public HTableProperties write(WritableFile file, long number, List<TableFilters> older) throws IOException {
        return write(file, number, older, null);
    }

    /**
     * As {@link #write(WritableFile, long, List)}, putting the BloomCluster's page runs in {@code warm} (null:
     * nowhere) as they are written: a get reads the cluster of its pile's newest table, which is this one, so
     * without it every new cluster is read from disk once (RocksDB's prepopulate_block_cache does the same for
     * the blocks a flush writes).
     */
    public HTableProperties write(WritableFile file, long number, List<TableFilters> older, FilterPageCache warm)
            throws IOException {
        if (entries == 0) {
            throw new IllegalStateException("an HTable needs at least one entry");
        }
        if (out == null) {
            start(file, HTableFormat.bucketsFor(maxBuckets, dataBytes));
        } else if (out.file != file) {
            throw new IllegalArgumentException("a streamed table is written to the file it streams to");
        }
        int windows = (buckets + window - 1) / window;
        while (nextWindow < windows) {
            writeWindow(null, 0, items.count());
        }

        long overflowOffset = out.offset;
        ByteArrayOutputStream overflowIndex = new ByteArrayOutputStream();
        // Kept for the reader opened from this writer (HTableMeta) unless large: the sink keeps every
        // table's HTableMeta until its job ends, and large values would then be held twice.
        ByteArrayOutputStream overflowArea = new ByteArrayOutputStream();
        boolean keepOverflow = true;
        // Overflow items are rare: boxed numbers sort them.
        Integer[] sorted = new Integer[overflow.count()];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i;
        }
        Arrays.sort(sorted, overflow::compare);
        byte[] scratch = new byte[64];
        putVar(overflowIndex, scratch, sorted.length);
        for (int i : sorted) {
            byte[] arena = overflow.chunkOf(i);
            int off = overflow.offset(i);
            int size = overflow.size(i);
            putVar(overflowIndex, scratch, out.offset - overflowOffset);
            putVar(overflowIndex, scratch, size);
            putVar(overflowIndex, scratch, Integer.toUnsignedLong(Checksums.maskedCrc32c(arena, off, size)));
            out.write(arena, off, size);
            keepOverflow &= overflowArea.size() + size <= KEPT_OVERFLOW_BYTES;
            if (keepOverflow) {
                overflowArea.write(arena, off, size);
            }
        }
        long overflowLength = out.offset - overflowOffset;

        long filtersOffset = out.offset;
        ByteArrayOutputStream ownFilters = new ByteArrayOutputStream();
        for (byte[] f : filters) {
            putVar(ownFilters, scratch, f.length);
            ownFilters.write(f, 0, f.length);
        }
        byte[] filterBytes = ownFilters.toByteArray();
        out.write(filterBytes, 0, filterBytes.length);
        long filtersLength = filterBytes.length;

        out.padToPage();
        long clusterOffset = out.offset;
        List<TableFilters> column = new ArrayList<>(older.size() + 1);
        TableFilters own = new TableFilters(number, filters);
        column.add(own);
        column.addAll(older);
        ByteArrayOutputStream runs = new ByteArrayOutputStream();
        ClusterPacker packer = new ClusterPacker(out, column, warm, number);
        int runCount = packer.write(runs, scratch);

        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        putVar(meta, scratch, buckets);
        putVar(meta, scratch, hash.seed());
        putVar(meta, scratch, entries);
        putVar(meta, scratch, dataBytes);
        putVar(meta, scratch, overflowOffset);
        putVar(meta, scratch, overflowLength);
        putVar(meta, scratch, filtersOffset);
        putVar(meta, scratch, filtersLength);
        putVar(meta, scratch, Integer.toUnsignedLong(Checksums.maskedCrc32c(filterBytes, 0, filterBytes.length)));
        putVar(meta, scratch, clusterOffset);
        putVar(meta, scratch, packer.columns());
        putVar(meta, scratch, window);
        putVar(meta, scratch, runCount);
        runs.writeTo(meta);
        writeHotMetadata(meta, scratch);
        overflowIndex.writeTo(meta);
        byte[] metaBytes = meta.toByteArray();
        long metaOffset = out.offset;
        out.write(metaBytes, 0, metaBytes.length);
        byte[] footer = new byte[HTableFormat.FOOTER_LENGTH];
        Coding.putLong(footer, 0, metaOffset);
        Coding.putInt(footer, 8, metaBytes.length);
        Coding.putInt(footer, 12, Checksums.maskedCrc32c(metaBytes, 0, metaBytes.length));
        Coding.putLong(footer, 16, HTableFormat.FOOTER_MAGIC);
        out.write(footer, 0, footer.length);
        file.sync();
        file.close();
        HTableMeta kept = new HTableMeta(HTableFormat.VERSION, metaBytes, metaOffset,
                keepOverflow ? overflowArea.toByteArray() : null);
        return new HTableProperties(number, out.offset, entries, dataBytes, Arrays.copyOf(firstKey, firstLength),
                firstSeq, Arrays.copyOf(lastKey, lastLength), lastSeq, maxSeq, own, kept);
    }

    /**
     * Balances, filters and writes window {@link #nextWindow} from {@link #items} {@code order[from, to)}
     * ({@code order} null: the items numbered {@code [from, to)}, which are then cleared).
     */
    private void writeWindow(int[] order, int from, int to) throws IOException {
        int base = nextWindow * window;
        int size = Math.min(window, buckets - base);
        buildFilters(base, size, order, from, to);
        BucketBalancer balancer = new BucketBalancer(items, base, size);
        for (int k = from; k < to; k++) {
            balancer.add(order == null ? k : order[k]);
        }
        balancer.balance();
        byte[] bucket = new byte[HTableFormat.BUCKET_SIZE];
        for (int i = 0; i < size; i++) {
            encodeBucket(items, base + i, balancer.contents[i], balancer.dest[i], balancer.mark[i], bucket);
            out.write(bucket, 0, bucket.length);
            dest[base + i] = balancer.dest[i];
            mark[base + i] = balancer.mark[i];
            moved[base + i] = balancer.moved[i];
        }
        for (int k = 0; k < balancer.overflow.size(); k++) {
            overflow.add(items, balancer.overflow.get(k));
        }
        if (order == null) {
            items.clear();
        }
        nextWindow++;
    }

    /** One filter per bucket of the window over the distinct keys whose home it is (wherever they end up). */
    private void buildFilters(int base, int size, int[] order, int from, int to) {
        int[] counts = new int[size];
        boolean[] newKey = new boolean[to - from];
        int prev = -1;
        for (int k = from; k < to; k++) {
            int i = order == null ? k : order[k];
            // A key's versions arrive together, and so are adjacent in their window.
            newKey[k - from] = prev < 0 || !items.sameKey(prev, i);
            if (newKey[k - from]) {
                counts[items.home(i) - base]++;
            }
            prev = i;
        }
        long[][] hashes = new long[size][];
        for (int b = 0; b < size; b++) {
            hashes[b] = new long[counts[b]];
            counts[b] = 0;
        }
        for (int k = from; k < to; k++) {
            if (newKey[k - from]) {
                int i = order == null ? k : order[k];
                int b = items.home(i) - base;
                hashes[b][counts[b]++] = KeyHash.bloom(items.lo(i));
            }
        }
        for (int b = 0; b < size; b++) {
            filters[base + b] = counts[b] == 0 ? Bytes.EMPTY : BloomFilter.build(hashes[b], counts[b], bloomBitsPerKey);
        }
    }

    /** Encodes bucket {@code b} into {@code out}, items in rank order. Package-private for the format test. */
    static void encodeBucket(PackedItems items, int b, IntArrayList contents, int dest, int mark, byte[] out) {
        Arrays.fill(out, (byte) 0);
        Coding.putShort(out, 0, contents.size());
        int off = HTableFormat.COUNT_LENGTH;
        IntArrayList ranked = BucketBalancer.inRankOrder(items, contents, b);
        for (int k = 0; k < ranked.size(); k++) {
            int i = ranked.get(k);
            if (off + items.size(i) > HTableFormat.SOURCE_OFFSET) {
                throw new IllegalStateException("bucket " + b + " holds more than " + HTableFormat.PAYLOAD + " bytes");
            }
            off = items.encode(i, out, off);
        }
        Coding.putShort(out, HTableFormat.SOURCE_OFFSET, b);
        Coding.putShort(out, HTableFormat.DEST_OFFSET, dest);
        Coding.putInt(out, HTableFormat.MARK_OFFSET, dest == HTableFormat.NO_DEST ? 0 : mark);
        Coding.putInt(out, HTableFormat.CRC_OFFSET, Checksums.maskedCrc32c(out, 0, HTableFormat.CRC_OFFSET));
    }

    /** The (source, destination, HashMark) of the most migrated buckets, most migrated first. */
    private void writeHotMetadata(ByteArrayOutputStream meta, byte[] scratch) {
        List<Integer> migrated = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            if (dest[b] != HTableFormat.NO_DEST) {
                migrated.add(b);
            }
        }
        migrated.sort((a, b) -> Long.compare(moved[b], moved[a]));
        int keep = Math.min(migrated.size(), (int) Math.ceil(buckets * HTableFormat.HOT_METADATA_FRACTION));
        putVar(meta, scratch, keep);
        for (int i = 0; i < keep; i++) {
            int b = migrated.get(i);
            putVar(meta, scratch, b);
            putVar(meta, scratch, dest[b]);
            putVar(meta, scratch, mark[b] & 0xffffffffL);
        }
    }

    static void putVar(ByteArrayOutputStream out, byte[] scratch, long v) {
        int n = Coding.putVarLong(scratch, 0, v);
        out.write(scratch, 0, n);
    }

    /** A file plus its write offset. */
    static final class Out {
        final WritableFile file;
        long offset;

        Out(WritableFile file) {
            this.file = file;
        }

        void write(byte[] b, int off, int len) throws IOException {
            file.append(b, off, len);
            offset += len;
        }

        void padToPage() throws IOException {
            int pad = (int) ((HTableFormat.BUCKET_SIZE - offset % HTableFormat.BUCKET_SIZE) % HTableFormat.BUCKET_SIZE);
            write(new byte[pad], 0, pad);
        }
    }
}
