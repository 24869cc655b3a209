package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.key.InternalKeys;
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
 * Builds one HTable (spec: docs/formats/htable.md): collects entries up to the capacity of the store's
 * largest table (95% of its buckets' payload), then sizes the table by what it holds
 * ({@link HTableFormat#bucketsFor}), balances the buckets, builds one bloom filter per bucket over the
 * keys hashed to it, and writes buckets, overflow area, the table's own filters, the BloomCluster of
 * its container and the metadata. The versions of a key must arrive together, newest first: flushes
 * add entries in internal-key order, compactions in hash order ({@link HashOrderCursor}).
 *
 * <p>Not thread-safe.
 */
public final class HTableWriter {
    /** Largest overflow area handed to the reader opened from this writer; a larger one is read back. */
    static final int KEPT_OVERFLOW_BYTES = 64 << 10;
    private final KeyHash hash;
    private final int maxBuckets;
    private final int bloomBitsPerKey;
    /** Chosen when the table is written. */
    private int buckets;
    private final List<Item> items = new ArrayList<>();
    private long dataBytes;
    private long maxSeq;

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

    public void add(byte[] key, long seq, int kind, byte[] value, long hi, long lo) {
        Item item = new Item(key, seq, kind, value, hi, lo, -1);
        items.add(item);
        dataBytes += item.size;
        maxSeq = Math.max(maxSeq, seq);
    }

    /** Encoded bytes of the items added so far. */
    public long dataBytes() {
        return dataBytes;
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** Whether adding {@code extra} more item bytes would pass the table's fill limit. */
    public boolean wouldOverfill(long extra) {
        return dataBytes + extra > HTableFormat.capacity(maxBuckets);
    }

    /**
     * Writes the table to {@code file}, syncs and closes it. {@code older} are the tables below it in its
     * container's pile, newest first; their filters join this table's in its BloomCluster.
     */
    public HTableProperties write(WritableFile file, long number, List<TableFilters> older) throws IOException {
        if (items.isEmpty()) {
            throw new IllegalStateException("an HTable needs at least one entry");
        }
        buckets = HTableFormat.bucketsFor(maxBuckets, dataBytes);
        for (Item item : items) {
            item.home = KeyHash.bucket(item.hi, buckets);
        }
        byte[][] filters = buildFilters();
        BucketBalancer balancer = new BucketBalancer(buckets);
        for (Item item : items) {
            balancer.add(item);
        }
        balancer.balance();

        Out out = new Out(file);
        byte[] header = Arrays.copyOf(FileHeader.encode(FileHeader.KIND_HTABLE, HTableFormat.VERSION),
                HTableFormat.BUCKET_SIZE);
        out.write(header, 0, header.length);
        byte[] bucket = new byte[HTableFormat.BUCKET_SIZE];
        for (int b = 0; b < buckets; b++) {
            encodeBucket(b, balancer.contents[b], balancer.dest[b], balancer.mark[b], bucket);
            out.write(bucket, 0, bucket.length);
        }

        long overflowOffset = out.offset;
        ByteArrayOutputStream overflowIndex = new ByteArrayOutputStream();
        // Kept for the reader opened from this writer (HTableMeta) unless large: the sink keeps every
        // table's HTableMeta until its job ends, and large values would then be held twice.
        ByteArrayOutputStream overflowArea = new ByteArrayOutputStream();
        boolean keepOverflow = true;
        List<Item> overflow = balancer.overflow;
        overflow.sort((a, b) -> {
            int c = Bytes.compare(a.key, b.key);
            return c != 0 ? c : Long.compare(b.seq, a.seq);
        });
        byte[] scratch = new byte[64];
        putVar(overflowIndex, scratch, overflow.size());
        for (Item item : overflow) {
            byte[] enc = new byte[item.size];
            item.encode(enc, 0);
            putVar(overflowIndex, scratch, out.offset - overflowOffset);
            putVar(overflowIndex, scratch, item.size);
            putVar(overflowIndex, scratch, Integer.toUnsignedLong(Checksums.maskedCrc32c(enc, 0, enc.length)));
            out.write(enc, 0, enc.length);
            keepOverflow &= overflowArea.size() + enc.length <= KEPT_OVERFLOW_BYTES;
            if (keepOverflow) {
                overflowArea.write(enc, 0, enc.length);
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
        ClusterPacker packer = new ClusterPacker(out, column);
        int runCount = packer.write(runs, scratch);

        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        putVar(meta, scratch, buckets);
        putVar(meta, scratch, hash.seed());
        putVar(meta, scratch, items.size());
        putVar(meta, scratch, dataBytes);
        putVar(meta, scratch, overflowOffset);
        putVar(meta, scratch, overflowLength);
        putVar(meta, scratch, filtersOffset);
        putVar(meta, scratch, filtersLength);
        putVar(meta, scratch, Integer.toUnsignedLong(Checksums.maskedCrc32c(filterBytes, 0, filterBytes.length)));
        putVar(meta, scratch, clusterOffset);
        putVar(meta, scratch, packer.columns());
        putVar(meta, scratch, runCount);
        runs.writeTo(meta);
        writeHotMetadata(meta, scratch, balancer);
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

        // Compactions add entries in hash order, so the key range is found, not read off the ends.
        Item first = items.get(0);
        Item last = first;
        for (Item item : items) {
            if (InternalKeys.compare(item.key, item.seq, first.key, first.seq) < 0) {
                first = item;
            }
            if (InternalKeys.compare(item.key, item.seq, last.key, last.seq) > 0) {
                last = item;
            }
        }
        return new HTableProperties(number, out.offset, items.size(), dataBytes, first.key, first.seq, last.key,
                last.seq, maxSeq, own, new HTableMeta(HTableFormat.VERSION, metaBytes, metaOffset,
                        keepOverflow ? overflowArea.toByteArray() : null));
    }

    /** One filter per bucket over the distinct keys whose home it is (wherever they end up stored). */
    private byte[][] buildFilters() {
        int[] counts = new int[buckets];
        boolean[] newKey = new boolean[items.size()];
        for (int i = 0; i < items.size(); i++) {
            // Entries arrive in key order, so a key's versions are adjacent.
            newKey[i] = i == 0 || !Arrays.equals(items.get(i - 1).key, items.get(i).key);
            if (newKey[i]) {
                counts[items.get(i).home]++;
            }
        }
        long[][] hashes = new long[buckets][];
        for (int b = 0; b < buckets; b++) {
            hashes[b] = new long[counts[b]];
            counts[b] = 0;
        }
        for (int i = 0; i < items.size(); i++) {
            if (newKey[i]) {
                Item item = items.get(i);
                hashes[item.home][counts[item.home]++] = KeyHash.bloom(item.lo);
            }
        }
        byte[][] filters = new byte[buckets][];
        for (int b = 0; b < buckets; b++) {
            filters[b] = counts[b] == 0 ? Bytes.EMPTY : BloomFilter.build(hashes[b], counts[b], bloomBitsPerKey);
        }
        return filters;
    }

    /** Encodes bucket {@code b} into {@code out}, items in rank order. Package-private for the format test. */
    static void encodeBucket(int b, List<Item> contents, int dest, int mark, byte[] out) {
        Arrays.fill(out, (byte) 0);
        Coding.putShort(out, 0, contents.size());
        int off = HTableFormat.COUNT_LENGTH;
        for (Item item : BucketBalancer.inRankOrder(contents, b)) {
            off = item.encode(out, off);
        }
        if (off > HTableFormat.SOURCE_OFFSET) {
            throw new IllegalStateException("bucket " + b + " holds " + off + " bytes");
        }
        Coding.putShort(out, HTableFormat.SOURCE_OFFSET, b);
        Coding.putShort(out, HTableFormat.DEST_OFFSET, dest);
        Coding.putInt(out, HTableFormat.MARK_OFFSET, dest == HTableFormat.NO_DEST ? 0 : mark);
        Coding.putInt(out, HTableFormat.CRC_OFFSET, Checksums.maskedCrc32c(out, 0, HTableFormat.CRC_OFFSET));
    }

    /** The (source, destination, HashMark) of the most migrated buckets, most migrated first. */
    private static void writeHotMetadata(ByteArrayOutputStream meta, byte[] scratch, BucketBalancer balancer) {
        int n = balancer.dest.length;
        List<Integer> migrated = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            if (balancer.dest[b] != HTableFormat.NO_DEST) {
                migrated.add(b);
            }
        }
        migrated.sort((a, b) -> Long.compare(balancer.moved[b], balancer.moved[a]));
        int keep = Math.min(migrated.size(), (int) Math.ceil(n * HTableFormat.HOT_METADATA_FRACTION));
        putVar(meta, scratch, keep);
        for (int i = 0; i < keep; i++) {
            int b = migrated.get(i);
            putVar(meta, scratch, b);
            putVar(meta, scratch, balancer.dest[b]);
            putVar(meta, scratch, balancer.mark[b] & 0xffffffffL);
        }
    }

    static void putVar(ByteArrayOutputStream out, byte[] scratch, long v) {
        int n = Coding.putVarLong(scratch, 0, v);
        out.write(scratch, 0, n);
    }

    /** A file plus its write offset. */
    static final class Out {
        private final WritableFile file;
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
