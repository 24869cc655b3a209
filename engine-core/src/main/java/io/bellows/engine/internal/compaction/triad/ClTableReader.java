package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.LogPositions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * An open CL-table (docs/formats/cl-table.md): its index, verified and held in memory (the paper keeps the
 * offsets index in memory too, §4.3), and the logs it points into, opened with it. A lookup searches the
 * index and reads the operation from the log, verifying the checksums of the chunks it reads; an operation
 * that is not the one the index names (another key or kind) is corruption too, never a wrong value.
 *
 * <p>A Bloom filter of the index's user keys is built when the table is opened, so that a get for a key
 * the table does not hold (most gets, since every L0 table's range covers most keys) skips the binary
 * search, as an SSTable's filter lets it skip its index. It is not stored: the index is read and parsed
 * whole at open anyway, and hashing its keys then costs less than reading a stored filter would.
 */
final class ClTableReader implements OpenTable {
    private final ReadableFile file;
    private final Path path;
    private final byte[] body;
    /** Per entry, in order: the offset of its key in {@link #body} (high bits) and the key's length (low 16 bits). */
    private final long[] entries;
    private final long[] logs;
    private final Path[] logPaths;
    private final ReadableFile[] logFiles;
    private final byte[] metadata;
    /** The engine's block cache, which holds the log chunks that reads verified; null for none. */
    private final BlockCache cache;
    /** The index's user keys; null when filters are off. */
    private final BloomFilter filter;

    private ClTableReader(ReadableFile file, Path path, byte[] body, long[] entries, long[] logs, byte[] metadata,
            ReadableFile[] logFiles, BlockCache cache, BloomFilter filter) {
        this.file = file;
        this.filter = filter;
        this.cache = cache;
        this.path = path;
        this.body = body;
        this.entries = entries;
        this.logs = logs;
        this.metadata = metadata;
        this.logFiles = logFiles;
        this.logPaths = new Path[logs.length];
        for (int i = 0; i < logs.length; i++) {
            logPaths[i] = FileNames.log(path.getParent(), logs[i]);
        }
    }

    /**
     * Verifies and loads the index of {@code file} and opens its logs; owns {@code file} on success. Chunks
     * read from the logs go through {@code cache} (may be null): with direct I/O, nothing else would keep
     * the hot values of L0 in memory. {@code bloomBitsPerKey} sizes the filter built over the index's keys
     * (0 for none).
     */
    static ClTableReader open(ReadableFile file, Path path, FileSystem fs, BlockCache cache, int bloomBitsPerKey)
            throws IOException {
        long size = file.size();
        if (size < FileHeader.LENGTH + ClTableWriter.FOOTER) {
            throw new CorruptionException(path, 0, "file too short for a CL-table (" + size + " bytes)");
        }
        FileHeader.check(file.read(0, FileHeader.LENGTH), 0, FileHeader.LENGTH, path, FileHeader.KIND_CLTABLE,
                ClTableWriter.VERSION, ClTableWriter.VERSION);
        byte[] footer = file.read(size - ClTableWriter.FOOTER, ClTableWriter.FOOTER);
        long bodyLen = Coding.getInt(footer, 0) & 0xffffffffL;
        if (bodyLen != size - FileHeader.LENGTH - ClTableWriter.FOOTER) {
            throw new CorruptionException(path, size - ClTableWriter.FOOTER, "body length " + bodyLen + " in a file of "
                    + size + " bytes");
        }
        byte[] body = file.read(FileHeader.LENGTH, (int) bodyLen);
        if (Checksums.unmask(Coding.getInt(footer, 4)) != Checksums.crc32c(body, 0, body.length)) {
            throw new CorruptionException(path, size - ClTableWriter.FOOTER, "index checksum mismatch");
        }
        int[] pos = {0};
        long[] logs;
        long[] entries;
        byte[] metadata;
        try {
            int logCount = Coding.getVarInt(body, pos, body.length);
            if (logCount > body.length) {
                throw new IllegalStateException("log count " + logCount);
            }
            logs = new long[logCount];
            for (int i = 0; i < logCount; i++) {
                logs[i] = Coding.getVarLong(body, pos, body.length);
            }
            long count = Coding.getVarLong(body, pos, body.length);
            if (count > body.length) {
                throw new IllegalStateException("entry count " + count);
            }
            entries = new long[(int) count];
            for (int i = 0; i < count; i++) {
                entries[i] = skipEntry(body, pos, logCount);
            }
            int metaLen = Coding.getVarInt(body, pos, body.length);
            if (pos[0] + metaLen != body.length) {
                throw new IllegalStateException("metadata of " + metaLen + " bytes at " + pos[0]);
            }
            metadata = metaLen == 0 ? null : Arrays.copyOfRange(body, pos[0], body.length);
        } catch (IllegalStateException e) {
            throw new CorruptionException(path, FileHeader.LENGTH + pos[0], "malformed CL-table index: " + e.getMessage());
        }
        ReadableFile[] logFiles = new ReadableFile[logs.length];
        try {
            for (int i = 0; i < logs.length; i++) {
                logFiles[i] = fs.openLog(FileNames.log(path.getParent(), logs[i]));
            }
        } catch (IOException | RuntimeException e) {
            closeAll(logFiles);
            throw e;
        }
        BloomFilter filter = bloomBitsPerKey <= 0 ? null : buildFilter(body, entries, bloomBitsPerKey);
        return new ClTableReader(file, path, body, entries, logs, metadata, logFiles, cache, filter);
    }

    /** The filter of the distinct user keys of {@code entries} (in internal order, so a key's versions are adjacent). */
    private static BloomFilter buildFilter(byte[] body, long[] entries, int bitsPerKey) {
        long[] hashes = new long[entries.length];
        int count = 0;
        int prevStart = -1;
        int prevLen = 0;
        for (long e : entries) {
            int start = (int) (e >>> 16);
            int len = (int) (e & 0xffff);
            if (prevStart < 0 || !Arrays.equals(body, start, start + len, body, prevStart, prevStart + prevLen)) {
                hashes[count++] = BloomFilter.hash(body, start, len);
            }
            prevStart = start;
            prevLen = len;
        }
        byte[] encoded = BloomFilter.build(hashes, count, bitsPerKey);
        return BloomFilter.decode(encoded, 0, encoded.length);
    }

    /** Parses the entry at {@code pos[0]}, moving past it; returns its key's offset and length, packed. */
    private static long skipEntry(byte[] b, int[] pos, int logCount) {
        int keyLen = Coding.getVarInt(b, pos, b.length);
        long packed = (long) pos[0] << 16 | keyLen;
        pos[0] += keyLen + 8;
        if (pos[0] > b.length || keyLen > InternalKeys.MAX_KEY_LENGTH) {
            throw new IllegalStateException("entry past the end");
        }
        int kind = InternalKeys.kind(Coding.getLong(b, pos[0] - 8));
        if (!InternalKeys.validKind(kind)) {
            throw new IllegalStateException("bad kind " + kind);
        }
        long ref = Coding.getVarLong(b, pos, b.length);
        if (ref == 0) {
            if (kind == InternalKeys.KIND_PUT) {
                int valueLen = Coding.getVarInt(b, pos, b.length);
                pos[0] += valueLen;
                if (pos[0] > b.length || pos[0] < 0) {
                    throw new IllegalStateException("value past the end");
                }
            }
        } else {
            if (ref > logCount || kind != InternalKeys.KIND_PUT) {
                throw new IllegalStateException("log reference " + ref + " of " + logCount);
            }
            Coding.getVarLong(b, pos, b.length);
            Coding.getVarInt(b, pos, b.length);
        }
        return packed;
    }

    private int keyStart(int i) {
        return (int) (entries[i] >>> 16);
    }

    private int keyLength(int i) {
        return (int) (entries[i] & 0xffff);
    }

    /** The WAL files this table points into. */
    @Override
    public long[] logs() {
        return logs.clone();
    }

    /** The scheme metadata stored with the table (TRIAD-DISK's sketch), or null. */
    @Override
    public byte[] schemeMetadata() {
        return metadata;
    }

    int size() {
        return entries.length;
    }

    long sequence(int i) {
        return InternalKeys.sequence(trailer(i));
    }

    int kind(int i) {
        return InternalKeys.kind(trailer(i));
    }

    private long trailer(int i) {
        return Coding.getLong(body, keyStart(i) + keyLength(i));
    }

    byte[] key(int i) {
        return Arrays.copyOfRange(body, keyStart(i), keyStart(i) + keyLength(i));
    }

    /** Internal order of entry {@code i} against {@code (key, seq)}: negative if the entry comes first. */
    int compare(int i, byte[] key, long seq) {
        int start = keyStart(i);
        int end = start + keyLength(i);
        int c = Arrays.compareUnsigned(body, start, end, key, 0, key.length);
        if (c != 0) {
            return c;
        }
        return Long.compare(seq, InternalKeys.sequence(Coding.getLong(body, end)));
    }

    /** The first entry at or after {@code (key, seq)} in internal order; {@link #size()} if none. */
    int lowerBound(byte[] key, long seq) {
        int lo = 0;
        int hi = entries.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, key, seq) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first entry strictly after {@code (key, seq)}; {@link #size()} if none. */
    int upperBound(byte[] key, long seq) {
        int lo = 0;
        int hi = entries.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, key, seq) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The value of entry {@code i} (null for a tombstone), from the index or read and verified from its log
     * (through the block cache, filling it if {@code fillCache}).
     */
    byte[] value(int i, LogPositions.Op op, boolean fillCache) throws IOException {
        int keyStart = keyStart(i);
        int keyLen = keyLength(i);
        long trailer = Coding.getLong(body, keyStart + keyLen);
        int[] pos = {keyStart + keyLen + 8};
        int kind = InternalKeys.kind(trailer);
        long ref = Coding.getVarLong(body, pos, body.length);
        if (ref == 0) {
            if (kind != InternalKeys.KIND_PUT) {
                return null;
            }
            int valueLen = Coding.getVarInt(body, pos, body.length);
            return Arrays.copyOfRange(body, pos[0], pos[0] + valueLen);
        }
        int log = (int) ref - 1;
        long chunk = Coding.getVarLong(body, pos, body.length);
        int offset = Coding.getVarInt(body, pos, body.length);
        LogPositions.read(logFiles[log], logPaths[log], cache, logs[log], fillCache, chunk, offset, op);
        if (op.kind != kind || Arrays.compareUnsigned(op.key, 0, op.key.length, body, keyStart, keyStart + keyLen) != 0) {
            throw new CorruptionException(logPaths[log], chunk, "the operation at offset " + offset
                    + " of this chunk is not the entry CL-table " + path.getFileName() + " names");
        }
        return op.value;
    }

    /** The filter's verdict on {@code key}; true when the table has none. */
    boolean mayContain(byte[] key) {
        return filter == null || filter.mayContain(key);
    }

    @Override
    public boolean get(byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        if (!mayContain(key)) {
            return false;
        }
        int i = lowerBound(key, seq);
        if (i == entries.length) {
            return false;
        }
        if (Arrays.compareUnsigned(body, keyStart(i), keyStart(i) + keyLength(i), key, 0, key.length) != 0) {
            return false;
        }
        out.set(sequence(i), kind(i), value(i, new LogPositions.Op(), fillCache));
        return true;
    }

    @Override
    public InternalIterator iterator(boolean fillCache) {
        return new ClTableIterator(this, fillCache);
    }

    @Override
    public void close() {
        closeAll(logFiles);
        try {
            file.close();
        } catch (IOException e) {
            throw new EngineIOException("closing CL-table " + path, e);
        }
    }

    private static void closeAll(ReadableFile[] files) {
        for (ReadableFile f : files) {
            if (f != null) {
                try {
                    f.close();
                } catch (IOException ignored) {
                    // read-only handles: nothing is lost
                }
            }
        }
    }

    Path path() {
        return path;
    }
}
