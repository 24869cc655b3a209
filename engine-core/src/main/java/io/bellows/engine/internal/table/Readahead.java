package io.bellows.engine.internal.table;

import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.util.DaemonThreads;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;

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
 * <p>A full-span scan also reads its next span ahead, on a thread of a process-wide pool, while the
 * caller works through the current one: a compaction's merge otherwise waits on each input's span in
 * turn, and its reads were about two fifths of a compaction thread's wall time at scale factor 8
 * (docs/benchmarks.md, "FLSM in PebblesDB's own setting"). Spans follow each other, so a block that straddles two is copied
 * from both. A span read ahead that failed is forgotten and read again in the caller's thread, which
 * reports the failure as any read does.
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
    /**
     * Reads ahead, one per full-span scan in flight; more queue. Bounded because a user cursor that does
     * not fill the cache scans every level and L0 table side by side, and each thread keeps a direct
     * staging buffer of its own. Nothing run here waits on anything, so a queue cannot deadlock.
     */
    private static final ThreadPoolExecutor AHEAD = DaemonThreads.fixed("bellows-read-ahead", 8);

    private boolean full;
    private byte[] span = NONE;
    private long spanStart;
    private int spanLength;
    /** The span after {@link #span}, being read ahead into {@link #next} while {@link #ahead} is not null. */
    private byte[] next = NONE;
    private long nextStart;
    private int nextLength;
    /** Completes true once {@link #next} holds its span, false if the read failed. */
    private CompletableFuture<Boolean> ahead;
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
        if (ahead != null) {
            byte[] out = fromNext(position, length, into);
            if (out != null) {
                if (full) {
                    readAhead(file, limit);
                }
                return out;
            }
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
        if (full) {
            readAhead(file, limit);
        }
        return out;
    }

    /**
     * The bytes asked for, from the span read ahead (and the end of the current one) once it has landed;
     * null when it does not hold them or failed, with nothing read ahead any more.
     */
    private byte[] fromNext(long position, int length, byte[] into) {
        boolean landed = landed();
        long end = position + length;
        // Straddling: starts in the current span, which the read ahead continues (nextStart is its end).
        boolean fromSpan = position >= spanStart && position < nextStart;
        if (!landed || end > nextStart + nextLength || !(fromSpan || position >= nextStart)) {
            return null;
        }
        byte[] out = into != null ? into : new byte[length];
        int head = 0;
        if (fromSpan) {
            head = (int) (nextStart - position);
            System.arraycopy(span, (int) (position - spanStart), out, 0, head);
        }
        System.arraycopy(next, (int) (position + head - nextStart), out, head, length - head);
        byte[] old = span;
        span = next;
        spanStart = nextStart;
        spanLength = nextLength;
        next = old;
        return out;
    }

    /** Starts reading the span after the current one, up to {@code limit}, unless the scan is at its end. */
    private void readAhead(ReadableFile file, long limit) {
        long start = spanStart + spanLength;
        int n = (int) Math.min(MAX_SPAN, limit - start);
        if (n <= 0) {
            return;
        }
        if (next.length < n) {
            byte[] pooled = FREE.poll();
            next = pooled != null ? pooled : new byte[MAX_SPAN];
        }
        byte[] into = next;
        nextStart = start;
        nextLength = n;
        ahead = CompletableFuture.supplyAsync(() -> {
            try {
                file.read(start, into, 0, n);
                return true;
            } catch (Throwable t) {
                // Any failure (an OutOfMemoryError for a new thread's staging buffer too) is the scan's to
                // meet again, in its own read, not this thread's to report.
                return false;
            }
        }, AHEAD);
    }

    /** Waits for the read ahead, whatever became of it; whether it landed. Nothing is read ahead after. */
    private boolean landed() {
        CompletableFuture<Boolean> a = ahead;
        ahead = null;
        return a.exceptionally(t -> false).join();
    }

    /** The iterator is closed: its spans may serve another, once nothing reads into them. */
    void release() {
        if (ahead != null) {
            landed();
        }
        if (span.length == MAX_SPAN) {
            FREE.offer(span);
        }
        if (next.length == MAX_SPAN) {
            FREE.offer(next);
        }
        span = NONE;
        next = NONE;
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
