package io.bellows.engine.internal.table;

import io.bellows.engine.internal.io.ReadableFile;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Reads ahead of an iterator that walks a table's data blocks in order, so that a scan costs one large
 * read per span instead of one read per block. Tables are read with direct I/O, where the kernel reads
 * nothing ahead: on the reference machine a 4 KiB direct read returns 80 MB/s and a 512 KiB one 1.3 GB/s
 * (docs/benchmarks.md, "Compaction readahead"), and a compaction that read block by block was bound by it.
 *
 * <p>Two modes, as RocksDB's: a full span from the first read, for a scan of the whole table that
 * does not fill the cache (a compaction input; RocksDB's {@code compaction_readahead_size}); and
 * automatic readahead for every other scan, which starts only after two reads in a row continue each
 * other, at 8 KiB, and doubles per read up to the full span (RocksDB's auto readahead), so a seek that
 * reads one block pays nothing for it.
 *
 * <p>Blocks are copied out of the span (into a new array, or the iterator's {@link BlockBuffers}), so
 * a block outlives the next span read; the CRC is checked on the copy as on any read. Thread safety:
 * one iterator's, one thread at a time.
 */
final class Readahead {
    /** The largest span read at once; 512 KiB reaches the disk's sequential rate (see above). */
    static final int MAX_SPAN = 512 << 10;
    private static final int AUTO_START = 8 << 10;
    /** Sequential reads before automatic readahead starts. */
    private static final int AUTO_AFTER = 2;

    /**
     * Full spans of closed iterators, process-wide: a compaction opens its inputs table after table, and
     * reusing their spans keeps it from allocating as many bytes as it reads. Bounded at 8 MiB.
     */
    private static final ArrayBlockingQueue<byte[]> FREE = new ArrayBlockingQueue<>(16);
    private static final byte[] NONE = new byte[0];

    private boolean full;
    private byte[] span = NONE;
    private long spanStart;
    private int spanLength;
    /** The next span an automatic readahead reads. */
    private int autoSize = AUTO_START;
    private long lastEnd = -1;
    private int sequential;
    /** Whether blocks were found in the cache since the last read: a scan went on past them. */
    private boolean cachedSince;

    /**
     * Sets the mode for the reads after a positioning call: {@code full} from the first read (a whole
     * table scanned without filling the cache) or automatic.
     */
    void position(boolean full) {
        this.full = full;
    }

    /**
     * The {@code length} bytes at {@code position}, from the span when it holds them, else from a read
     * of the file that may go on to {@code limit} (which the caller guarantees lies inside the file).
     */
    byte[] read(ReadableFile file, long position, int length, long limit) throws IOException {
        return read(file, position, length, limit, null);
    }

    /**
     * As {@link #read(ReadableFile, long, int, long)}, into {@code into} when it is not null (at least
     * {@code length} bytes long; it is returned).
     */
    byte[] read(ReadableFile file, long position, int length, long limit, byte[] into) throws IOException {
        boolean continues = position == lastEnd || (cachedSince && position > lastEnd);
        cachedSince = false;
        lastEnd = position + length;
        if (position >= spanStart && position + length <= spanStart + spanLength) {
            byte[] out = into != null ? into : new byte[length];
            System.arraycopy(span, (int) (position - spanStart), out, 0, length);
            return out;
        }
        int want = spanSize(continues);
        long room = limit - position;
        if (want <= length || room <= length) {
            if (into == null) {
                return file.read(position, length);
            }
            file.read(position, into, 0, length);
            return into;
        }
        int n = (int) Math.min(want, room);
        if (span.length < n) {
            byte[] pooled = FREE.poll();
            span = pooled != null ? pooled : new byte[n > MAX_SPAN / 2 ? MAX_SPAN : n];
        }
        // A read that fails part way may have overwritten the old span: forget it first.
        spanLength = 0;
        file.read(position, span, 0, n);
        spanStart = position;
        spanLength = n;
        byte[] out = into != null ? into : new byte[length];
        System.arraycopy(span, 0, out, 0, length);
        return out;
    }

    /** The iterator is closed: its span may serve another. */
    void release() {
        if (span.length == MAX_SPAN) {
            FREE.offer(span);
        }
        span = NONE;
        spanLength = 0;
    }

    /** The iterator took its next block from the cache: a read after it still continues the scan. */
    void cacheHit() {
        cachedSince = true;
    }

    /** How much the read after a span miss should fetch; 0 for just the block. */
    private int spanSize(boolean continues) {
        if (full) {
            return MAX_SPAN;
        }
        if (!continues) {
            sequential = 0;
            autoSize = AUTO_START;
            return 0;
        }
        if (++sequential < AUTO_AFTER) {
            return 0;
        }
        int size = autoSize;
        autoSize = Math.min(MAX_SPAN, autoSize * 2);
        return size;
    }
}
