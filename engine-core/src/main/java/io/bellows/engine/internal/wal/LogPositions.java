package io.bellows.engine.internal.wal;

import com.carrotsearch.hppc.IntArrayList;
import com.carrotsearch.hppc.LongArrayList;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where each operation of a WAL lies, and reading one operation back from there (docs/formats/wal.md).
 * A position is the file offset of the chunk holding the operation's first byte and the operation's
 * offset within that chunk's payload: the chunk's header can then be read directly and its checksum
 * verified, without walking the block from its start. Used by tables whose entries point into a log
 * instead of holding their values (docs/formats/cl-table.md).
 */
public final class LogPositions {
    /** Receives one operation of a complete, intact record. */
    @FunctionalInterface
    public interface OpSink {
        void op(long sequence, int kind, long chunkOffset, int offsetInChunk);
    }

    /** One operation read back from a log. */
    public static final class Op {
        public int kind;
        public byte[] key;
        public byte[] value;
    }

    private LogPositions() {}

    /**
     * Shows {@code sink} every operation of every complete record of {@code f}, in log order, and stops at
     * the first damage (a torn tail, a zeroed region, a checksum or framing error, a body that does not
     * parse). Returns the offset where the intact prefix ends.
     */
    public static long scan(ReadableFile f, Path path, OpSink sink) throws IOException {
        long size = f.size();
        if (size < FileHeader.LENGTH) {
            return 0;
        }
        FileHeader.check(f.read(0, FileHeader.LENGTH), 0, FileHeader.LENGTH, path, FileHeader.KIND_WAL,
                LogFormat.VERSION, LogFormat.VERSION);
        byte[] buf = new byte[LogFormat.BLOCK_SIZE];
        byte[] rec = new byte[256];
        int recLen = 0;
        boolean inRecord = false;
        long recordStart = FileHeader.LENGTH;
        LongArrayList chunkOffsets = new LongArrayList();
        IntArrayList chunkStarts = new IntArrayList();
        for (long block = FileHeader.LENGTH; block < size; block += LogFormat.BLOCK_SIZE) {
            int n = (int) Math.min(LogFormat.BLOCK_SIZE, size - block);
            f.read(block, buf, 0, n);
            int p = 0;
            while (n - p >= LogFormat.CHUNK_HEADER_SIZE) {
                int len = Coding.getShort(buf, p + 4);
                int type = buf[p + 6] & 0xff;
                int payload = p + LogFormat.CHUNK_HEADER_SIZE;
                if (type < LogFormat.FULL || type > LogFormat.LAST || payload + len > n
                        || Checksums.unmask(Coding.getInt(buf, p)) != Checksums.crc32c((byte) type, buf, payload, len)) {
                    return recordStart;
                }
                boolean first = type == LogFormat.FULL || type == LogFormat.FIRST;
                if (first == inRecord) {
                    return recordStart;
                }
                if (first) {
                    recLen = 0;
                    chunkOffsets.clear();
                    chunkStarts.clear();
                    inRecord = true;
                }
                if (recLen + len > rec.length) {
                    rec = Arrays.copyOf(rec, Math.max(rec.length * 2, recLen + len));
                }
                chunkOffsets.add(block + p);
                chunkStarts.add(recLen);
                System.arraycopy(buf, payload, rec, recLen, len);
                recLen += len;
                p = payload + len;
                if (type == LogFormat.FULL || type == LogFormat.LAST) {
                    inRecord = false;
                    if (!ops(rec, recLen, chunkOffsets, chunkStarts, sink)) {
                        return recordStart;
                    }
                    recordStart = block + p;
                }
            }
        }
        return recordStart;
    }

    /** Shows the operations of one record body to {@code sink}; false if the body does not parse. */
    private static boolean ops(byte[] rec, int len, LongArrayList chunkOffsets, IntArrayList chunkStarts, OpSink sink) {
        if (len < 12) {
            return false;
        }
        long first = Coding.getLong(rec, 0);
        int count = Coding.getInt(rec, 8);
        int[] pos = {12};
        int chunk = 0;
        try {
            for (int i = 0; i < count; i++) {
                int start = pos[0];
                if (start >= len) {
                    return false;
                }
                int kind = rec[pos[0]++];
                if (!InternalKeys.validKind(kind)) {
                    return false;
                }
                int keyLen = Coding.getVarInt(rec, pos, len);
                pos[0] += keyLen;
                if (kind == InternalKeys.KIND_PUT) {
                    int valueLen = Coding.getVarInt(rec, pos, len);
                    pos[0] += valueLen;
                }
                if (pos[0] > len || pos[0] < start) {
                    return false;
                }
                while (chunk + 1 < chunkStarts.size() && chunkStarts.get(chunk + 1) <= start) {
                    chunk++;
                }
                sink.op(first + i, kind, chunkOffsets.get(chunk), start - chunkStarts.get(chunk));
            }
        } catch (IllegalStateException e) {
            return false;
        }
        return pos[0] == len;
    }

    /**
     * Reads the operation at {@code (chunkOffset, offsetInChunk)} of {@code f} into {@code out}, verifying
     * the checksum of every chunk it reads. Damage of any kind is a {@link CorruptionException} naming
     * {@code path} and the chunk's offset, never a wrong operation.
     */
    public static void read(ReadableFile f, Path path, long chunkOffset, int offsetInChunk, Op out) throws IOException {
        read(f, path, null, 0, false, chunkOffset, offsetInChunk, out);
    }

    /**
     * As {@link #read(ReadableFile, Path, long, int, Op)}, looking each chunk up in {@code cache} first
     * (keyed by the log's file number {@code logNumber} and the chunk's offset: file numbers are never
     * reused and a written chunk never changes) and caching the verified chunks it reads from the file
     * when {@code fillCache}. A cached chunk was verified when it was read.
     */
    public static void read(ReadableFile f, Path path, BlockCache cache, long logNumber, boolean fillCache,
            long chunkOffset, int offsetInChunk, Op out) throws IOException {
        ChunkStream in = new ChunkStream(f, path, cache, logNumber, fillCache, chunkOffset, offsetInChunk);
        try {
            int kind = in.next();
            if (!InternalKeys.validKind(kind)) {
                throw in.damage("bad operation kind " + kind);
            }
            out.kind = kind;
            out.key = in.bytes(in.varint());
            out.value = kind == InternalKeys.KIND_PUT ? in.bytes(in.varint()) : null;
        } catch (EOFException e) {
            throw in.damage("the log ends inside the operation");
        }
    }

    /**
     * The payload bytes of a record from one position on, chunk after verified chunk. A chunk is held as
     * one array: its type byte, then its payload (the form it is cached in).
     */
    private static final class ChunkStream {
        /** Bytes read at a chunk's offset in one call: its header and a small payload. */
        private static final int GUESS = 512;
        private final ReadableFile f;
        private final Path path;
        private final BlockCache cache;
        private final long logNumber;
        private final boolean fillCache;
        private long chunk;
        private int type;
        /** The chunk: its type byte at 0, its payload after it. */
        private byte[] page;
        private int pos;

        ChunkStream(ReadableFile f, Path path, BlockCache cache, long logNumber, boolean fillCache, long chunkOffset,
                int offsetInChunk) throws IOException {
            this.f = f;
            this.path = path;
            this.cache = cache;
            this.logNumber = logNumber;
            this.fillCache = fillCache;
            load(chunkOffset);
            if (offsetInChunk >= payloadLength()) {
                throw damage("operation offset " + offsetInChunk + " past the chunk's " + payloadLength() + " bytes");
            }
            pos = 1 + offsetInChunk;
        }

        private int payloadLength() {
            return page.length - 1;
        }

        private void load(long offset) throws IOException {
            chunk = offset;
            byte[] cached = cache == null ? null : cache.getPage(logNumber, offset);
            if (cached != null) {
                page = cached;
                type = page[0] & 0xff;
                pos = 1;
                return;
            }
            long limit = Math.min(LogFormat.blockEnd(offset), f.size());
            if (offset < FileHeader.LENGTH || offset + LogFormat.CHUNK_HEADER_SIZE > limit) {
                throw damage("no chunk header at this offset");
            }
            // One read for the header and, usually, the whole payload (an operation's chunk is mostly small).
            byte[] first = f.read(offset, (int) Math.min(limit - offset, GUESS));
            int len = Coding.getShort(first, 4);
            type = first[6] & 0xff;
            if (type < LogFormat.FULL || type > LogFormat.LAST || offset + LogFormat.CHUNK_HEADER_SIZE + len > limit) {
                throw damage("bad chunk header");
            }
            page = new byte[1 + len];
            page[0] = (byte) type;
            int have = Math.min(len, first.length - LogFormat.CHUNK_HEADER_SIZE);
            System.arraycopy(first, LogFormat.CHUNK_HEADER_SIZE, page, 1, have);
            if (have < len) {
                f.read(offset + first.length, page, 1 + have, len - have);
            }
            if (Checksums.unmask(Coding.getInt(first, 0)) != Checksums.crc32c((byte) type, page, 1, len)) {
                throw damage("chunk checksum mismatch");
            }
            if (cache != null && fillCache) {
                cache.putPage(logNumber, offset, page);
            }
            pos = 1;
        }

        /** Moves to the record's next chunk, which must continue it. */
        private void advance() throws IOException {
            if (type == LogFormat.FULL || type == LogFormat.LAST) {
                throw new EOFException();
            }
            long next = chunk + LogFormat.CHUNK_HEADER_SIZE + payloadLength();
            if (LogFormat.blockEnd(chunk) - next < LogFormat.CHUNK_HEADER_SIZE) {
                next = LogFormat.blockEnd(chunk);
            }
            load(next);
            if (type != LogFormat.MIDDLE && type != LogFormat.LAST) {
                throw damage("a " + LogFormat.typeName(type) + " chunk where the record continues");
            }
        }

        int next() throws IOException {
            while (pos == page.length) {
                advance();
            }
            return page[pos++] & 0xff;
        }

        int varint() throws IOException {
            int v = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int b = next();
                v |= (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    if (v < 0) {
                        break;
                    }
                    return v;
                }
            }
            throw damage("bad length varint");
        }

        byte[] bytes(int n) throws IOException {
            if (n > f.size()) {
                throw damage("a length of " + n + " bytes, more than the log holds");
            }
            byte[] out = new byte[n];
            int done = 0;
            while (done < n) {
                while (pos == page.length) {
                    advance();
                }
                int k = Math.min(n - done, page.length - pos);
                System.arraycopy(page, pos, out, done, k);
                pos += k;
                done += k;
            }
            return out;
        }

        CorruptionException damage(String what) {
            return new CorruptionException(path, chunk, what);
        }
    }
}
