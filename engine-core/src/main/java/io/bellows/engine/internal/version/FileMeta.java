package io.bellows.engine.internal.version;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import java.util.Comparator;
import java.util.List;

/**
 * What the manifest records of one table: its number, size, key range and entry count. Immutable but
 * for the table's open reader, which the table cache keeps here once opened (as RocksDB's FileDescriptor
 * holds its table reader), so that a get reaches the reader of each table it probes without a map lookup.
 * The key range is the smallest and largest internal key, so two tables holding different versions
 * of one user key still order correctly.
 */
public final class FileMeta {
    public final long number;
    public final long fileSize;
    public final byte[] smallestKey;
    public final long smallestSeq;
    public final byte[] largestKey;
    public final long largestSeq;
    public final long entries;
    /** Highest sequence in the table; orders L0 tables by age. */
    public final long maxSequence;
    /**
     * The table's reader once the table cache opened it; null before. Typed loosely so that versions do
     * not depend on table formats. Only the table cache sets it, and it closes the reader only once no
     * version holds this table.
     */
    private volatile Object reader;

    public FileMeta(long number, long fileSize, byte[] smallestKey, long smallestSeq, byte[] largestKey,
            long largestSeq, long entries, long maxSequence) {
        this.number = number;
        this.fileSize = fileSize;
        this.smallestKey = smallestKey;
        this.smallestSeq = smallestSeq;
        this.largestKey = largestKey;
        this.largestSeq = largestSeq;
        this.entries = entries;
        this.maxSequence = maxSequence;
    }

    /** The reader the table cache kept here, or null. */
    public Object cachedReader() {
        return reader;
    }

    /** Keeps the table's open reader (the table cache's alone). */
    public void cacheReader(Object r) {
        reader = r;
    }

    /** The numbers of {@code files}, unboxed. */
    public static LongHashSet numbers(List<FileMeta> files) {
        LongHashSet out = new LongHashSet(files.size());
        for (FileMeta f : files) {
            out.add(f.number);
        }
        return out;
    }

    /** Whether the table's user-key range contains {@code key}. */
    public boolean contains(byte[] key) {
        return Bytes.compare(key, smallestKey) >= 0 && Bytes.compare(key, largestKey) <= 0;
    }

    /** Whether the table's user-key range meets {@code [from, to]} (null = unbounded). */
    public boolean overlaps(byte[] from, byte[] to) {
        return (from == null || Bytes.compare(largestKey, from) >= 0)
                && (to == null || Bytes.compare(smallestKey, to) <= 0);
    }

    /** Newest data first: by highest sequence, then by file number, descending (an L0 of overlapping tables). */
    public static final Comparator<FileMeta> NEWEST_FIRST =
            Comparator.comparingLong((FileMeta f) -> f.maxSequence).thenComparingLong(f -> f.number).reversed();
    /** By smallest internal key (a level of disjoint tables, or of fragments found by key). */
    public static final Comparator<FileMeta> BY_SMALLEST_KEY = FileMeta::compareSmallest;

    public int compareSmallest(FileMeta o) {
        return InternalKeys.compare(smallestKey, smallestSeq, o.smallestKey, o.smallestSeq);
    }

    @Override
    public String toString() {
        return "#" + number + "[" + Bytes.toHex(smallestKey) + "@" + smallestSeq + " .. " + Bytes.toHex(largestKey)
                + "@" + largestSeq + "] " + fileSize + "B";
    }
}
