package io.bellows.engine.internal.table;

import com.carrotsearch.hppc.LongArrayList;
import io.bellows.engine.Compression;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.iter.Slice;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes one SSTable (spec: docs/formats/sstable.md) from entries added in internal-key order: data
 * blocks as they fill, then the bloom filter, properties, index block and footer on {@link #finish}.
 *
 * <p>An index entry is written only once the first key of the next block is known, so its key can be
 * a short separator between the two blocks rather than the last key itself.
 *
 * <p>After any exception from {@link #add} or {@link #finish} the file is closed and the builder is
 * unusable; the caller deletes the file. Thread safety: one thread.
 */
public final class TableBuilder {
    public static final int DEFAULT_BLOCK_SIZE = 4096;
    public static final int DEFAULT_RESTART_INTERVAL = 16;
    public static final int DEFAULT_BLOOM_BITS_PER_KEY = 10;

    private final WritableFile file;
    private final Path path;
    private final int blockSize;
    private final int bloomBitsPerKey;
    private final TableBuildBuffers buffers;
    private final BlockBuilder dataBlock;
    private final BlockBuilder indexBlock;
    /** XXH3 hashes of the distinct user keys; null when the table has no filter. */
    private final LongArrayList keyHashes;
    /** An index entry's shortened key. */
    private byte[] separator = new byte[64];
    private final byte[] handleBuffer = new byte[BlockHandle.MAX_VARINT_LENGTH];
    /** The byte[] entry point's arguments as views, so that both entry points share one path. */
    private final Slice keyArg = new Slice();
    private final Slice valueArg = new Slice();

    /** The previous entry's user key is lastKey[0, lastKeyLength). */
    private byte[] lastKey = new byte[64];
    private int lastKeyLength;
    private long lastTrailer;
    private byte[] smallestKey;
    private long smallestTrailer;
    private long entries;
    private long deletions;
    private long rawKeyBytes;
    private long rawValueBytes;
    /** Bytes written to the file. */
    private long offset;

    /**
     * The last flushed data block, whose index entry waits for the next key; none when the offset is
     * negative. Its last key is still lastKey: the next entry replaces it only after adding that entry.
     */
    private long pendingOffset = -1;
    private int pendingSize;
    private boolean closed;
    private final BlockCodec codec;
    /** Where finish put the meta blocks, and the properties it returned; null until then. */
    private BlockHandle filterHandle;
    private BlockHandle indexHandle;
    private long propertiesOffset;
    private TableProperties finished;

    /**
     * @param file a new, empty file; the builder owns it and closes it
     * @param path the file's path, for error messages
     * @param blockSize target size of a data block's contents; a block is cut once it reaches it
     * @param restartInterval entries between restart points in data blocks
     * @param bloomBitsPerKey bloom filter bits per distinct user key; 0 writes no filter
     */
    public TableBuilder(WritableFile file, Path path, int blockSize, int restartInterval, int bloomBitsPerKey) {
        this(file, path, blockSize, restartInterval, bloomBitsPerKey, Compression.NONE);
    }

    /** As above, compressing data blocks with {@code compression} (blocks that shrink too little stay raw). */
    public TableBuilder(WritableFile file, Path path, int blockSize, int restartInterval, int bloomBitsPerKey,
            Compression compression) {
        this(file, path, blockSize, restartInterval, bloomBitsPerKey, compression, new TableBuildBuffers());
    }

    /**
     * As above, building in {@code buffers}, which the caller passes to the next builder once this one
     * is finished or abandoned (a flush or compaction writing many tables).
     */
    public TableBuilder(WritableFile file, Path path, int blockSize, int restartInterval, int bloomBitsPerKey,
            Compression compression, TableBuildBuffers buffers) {
        this.codec = new BlockCodec(compression);
        this.file = Objects.requireNonNull(file, "file");
        this.path = path;
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be at least 1, got " + blockSize);
        }
        if (bloomBitsPerKey < 0) {
            throw new IllegalArgumentException("bloom bits per key must not be negative, got " + bloomBitsPerKey);
        }
        this.blockSize = blockSize;
        this.bloomBitsPerKey = bloomBitsPerKey;
        this.buffers = buffers;
        this.dataBlock = buffers.data(restartInterval);
        this.indexBlock = buffers.index();
        if (bloomBitsPerKey > 0) {
            buffers.keyHashes.clear();
            this.keyHashes = buffers.keyHashes;
        } else {
            this.keyHashes = null;
        }
    }

    /**
     * Appends an entry. Entries must be strictly increasing in internal order (user key ascending, then
     * sequence descending). A DELETE carries no value; {@code value} is then ignored and may be null.
     *
     * @throws IllegalArgumentException for an out-of-order entry, an over-long key, a sequence outside
     *     [0, MAX_SEQUENCE], an unknown kind or a PUT without value
     */
    public void add(byte[] key, long seq, int kind, byte[] value) throws IOException {
        Objects.requireNonNull(key, "key");
        if (kind == InternalKeys.KIND_PUT) {
            Objects.requireNonNull(value, "value of a PUT");
        }
        add(keyArg.set(key), seq, kind, valueArg.set(value));
    }

    /**
     * As {@link #add(byte[], long, int, byte[])} for views that need stay valid only during the call (a
     * compaction's or flush's input iterator's): the bytes go into the block and nothing keeps them.
     */
    public void add(Slice key, long seq, int kind, Slice value) throws IOException {
        checkOpen();
        byte[] kb = key.array();
        int ko = key.offset();
        int kl = key.length();
        if (kl > InternalKeys.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key length " + kl + " exceeds the limit of "
                    + InternalKeys.MAX_KEY_LENGTH + " bytes");
        }
        if (seq < 0 || seq > InternalKeys.MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + seq + " outside [0, " + InternalKeys.MAX_SEQUENCE + "]");
        }
        if (!InternalKeys.validKind(kind)) {
            throw new IllegalArgumentException("unknown entry kind " + kind);
        }
        byte[] vb = value.array();
        int vo = value.offset();
        int vl = value.length();
        if (kind != InternalKeys.KIND_PUT) {
            vb = Bytes.EMPTY;
            vo = 0;
            vl = 0;
        }
        boolean newUserKey = true;
        if (entries > 0) {
            int c = Bytes.compare(kb, ko, kl, lastKey, 0, lastKeyLength);
            if (c < 0 || (c == 0 && seq >= InternalKeys.sequence(lastTrailer))) {
                throw new IllegalArgumentException("entry " + key + "@" + seq + " does not follow "
                        + Bytes.toHex(Arrays.copyOf(lastKey, lastKeyLength)) + "@" + InternalKeys.sequence(lastTrailer)
                        + " in internal key order");
            }
            newUserKey = c != 0;
        }
        long trailer = InternalKeys.trailer(seq, kind);
        try {
            if (entries == 0) {
                file.append(FileHeader.encode(FileHeader.KIND_SSTABLE, TableFormat.VERSION));
                offset = FileHeader.LENGTH;
                smallestKey = key.copy();
                smallestTrailer = trailer;
            }
            if (pendingOffset >= 0) {
                addIndexEntry(kb, ko, kl);
            }
            if (keyHashes != null && newUserKey) {
                keyHashes.add(BloomFilter.hash(kb, ko, kl));
            }
            dataBlock.add(kb, ko, kl, trailer, vb, vo, vl);
            rememberLastKey(kb, ko, kl, trailer);
            entries++;
            if (kind == InternalKeys.KIND_DELETE) {
                deletions++;
            }
            rawKeyBytes += kl + TableFormat.KEY_TRAILER_LENGTH;
            rawValueBytes += vl;
            if (dataBlock.estimatedSize() >= blockSize) {
                flushDataBlock();
            }
        } catch (IOException | RuntimeException e) {
            abandon();
            throw e;
        }
    }

    /** Size the file would have if finished now (approximate until finished). */
    public long estimatedFileSize() {
        long filter = keyHashes == null ? 0 : (keyHashes.size() * (long) bloomBitsPerKey + 7) / 8 + 1;
        return Math.max(offset, FileHeader.LENGTH) + dataBlock.estimatedSize() + indexBlock.estimatedSize() + filter
                + 3L * TableFormat.BLOCK_TRAILER_LENGTH + TableFormat.FOOTER_LENGTH;
    }

    public long entries() {
        return entries;
    }

    /**
     * Writes the last data block, the filter, properties and index blocks and the footer, then syncs
     * and closes the file.
     *
     * @throws IllegalStateException if no entry was added (abandon an empty builder instead)
     */
    public TableProperties finish() throws IOException {
        return finish(null);
    }

    /**
     * As {@link #finish()}, storing {@code schemeMetadata} (bytes of the compaction scheme's, null for
     * none) in the properties block.
     */
    public TableProperties finish(byte[] schemeMetadata) throws IOException {
        checkOpen();
        if (entries == 0) {
            throw new IllegalStateException("a table needs at least one entry; abandon() an empty builder");
        }
        try {
            if (!dataBlock.isEmpty()) {
                flushDataBlock();
            }
            addIndexEntry(null, 0, -1);
            BlockHandle filter = keyHashes == null ? null : writeFilter();
            filterHandle = filter;
            BlockHandle properties = writeRaw(PropertiesBlock.encode(entries, deletions, smallestKey, smallestTrailer,
                    Arrays.copyOf(lastKey, lastKeyLength), lastTrailer, rawKeyBytes, rawValueBytes, schemeMetadata));
            int indexLength = indexBlock.finish();
            BlockHandle index = new BlockHandle(writeBlock(indexBlock.buffer(), indexLength), indexLength);
            propertiesOffset = properties.offset();
            indexHandle = index;
            file.append(new Footer(filter, properties, index, TableFormat.VERSION).encode());
            offset += TableFormat.FOOTER_LENGTH;
            file.sync();
            closed = true;
            file.close();
        } catch (IOException | RuntimeException e) {
            abandon();
            throw e;
        }
        finished = new TableProperties(offset, entries, deletions, smallestKey,
                InternalKeys.sequence(smallestTrailer), Arrays.copyOf(lastKey, lastKeyLength),
                InternalKeys.sequence(lastTrailer), rawKeyBytes, rawValueBytes, schemeMetadata);
        return finished;
    }

    /**
     * What a reader of the finished table keeps in memory (index, filter, properties), copied out of
     * the buffers: call after {@link #finish} and before the buffers pass to the next builder. Copies
     * are taken only here, so a job whose tables nobody opens early allocates nothing for them.
     */
    public TableReader.Written written() {
        if (finished == null) {
            throw new IllegalStateException("table builder for " + path + " is not finished");
        }
        int indexLength = indexHandle.size();
        Block index = new Block(Arrays.copyOf(indexBlock.buffer(), indexLength), indexLength, path,
                indexHandle.offset());
        BloomFilter filter = null;
        long dataEnd = propertiesOffset;
        if (filterHandle != null) {
            int length = filterHandle.size();
            filter = BloomFilter.decode(Arrays.copyOf(buffers.filter(), length), 0, length);
            dataEnd = filterHandle.offset();
        }
        return new TableReader.Written(index, filter, finished, dataEnd);
    }

    /** Closes the file without finishing the table, ignoring errors. Idempotent. */
    public void abandon() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            file.close();
        } catch (IOException | RuntimeException ignored) {
            // The table is being thrown away; its file's close error changes nothing.
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("table builder for " + path + " is finished or abandoned");
        }
    }

    private void rememberLastKey(byte[] kb, int ko, int kl, long trailer) {
        if (lastKey.length < kl) {
            lastKey = new byte[Math.max(kl, 2 * lastKey.length)];
        }
        System.arraycopy(kb, ko, lastKey, 0, kl);
        lastKeyLength = kl;
        lastTrailer = trailer;
    }

    private void flushDataBlock() throws IOException {
        int length = dataBlock.finish();
        int stored = codec.compress(dataBlock.buffer(), length);
        if (stored < 0) {
            pendingOffset = writeBlock(dataBlock.buffer(), length);
            pendingSize = length;
        } else {
            pendingOffset = writeBlock(codec.output(), stored, codec.type());
            pendingSize = stored;
        }
        dataBlock.reset();
    }

    /**
     * Adds the index entry of the pending block: a key at or after its last key and, when the next
     * user key {@code next[offset, offset + length)} is given ({@code length >= 0}), before it.
     */
    private void addIndexEntry(byte[] next, int offset, int length) {
        if (separator.length < lastKeyLength) {
            separator = new byte[Math.max(lastKeyLength, 2 * separator.length)];
        }
        int n = length < 0 ? Separators.after(lastKey, lastKeyLength, separator)
                : Separators.between(lastKey, lastKeyLength, next, offset, length, separator);
        int h = BlockHandle.encodeVarint(pendingOffset, pendingSize, handleBuffer, 0);
        if (n >= 0) {
            // The largest sequence makes (shorter, seq) the first internal key of that user key, which
            // is still after every version of the block's last user key.
            indexBlock.add(separator, 0, n, InternalKeys.trailer(InternalKeys.MAX_SEQUENCE, InternalKeys.KIND_PUT),
                    handleBuffer, 0, h);
        } else {
            indexBlock.add(lastKey, 0, lastKeyLength, lastTrailer, handleBuffer, 0, h);
        }
        pendingOffset = -1;
    }

    /** Writes the filter of the key hashes, built in the reused array with room for its trailer. */
    private BlockHandle writeFilter() throws IOException {
        int length = BloomFilter.encodedLength(keyHashes.size(), bloomBitsPerKey);
        byte[] out = buffers.zeroed(length + TableFormat.BLOCK_TRAILER_LENGTH);
        BloomFilter.build(keyHashes.buffer, keyHashes.size(), bloomBitsPerKey, out);
        return new BlockHandle(writeBlock(out, length), length);
    }

    private BlockHandle writeRaw(byte[] contents) throws IOException {
        byte[] buf = Arrays.copyOf(contents, contents.length + TableFormat.BLOCK_TRAILER_LENGTH);
        return new BlockHandle(writeBlock(buf, contents.length), contents.length);
    }

    /** Writes {@code buf[0, length)} raw and its trailer, for which {@code buf} has room; returns its offset. */
    private long writeBlock(byte[] buf, int length) throws IOException {
        return writeBlock(buf, length, TableFormat.BLOCK_TYPE_RAW);
    }

    /** Writes {@code buf[0, length)}, stored as {@code type}, and its trailer, for which {@code buf} has room. */
    private long writeBlock(byte[] buf, int length, byte type) throws IOException {
        buf[length] = type;
        Coding.putInt(buf, length + 1, Checksums.maskedCrc32c(buf, 0, length + 1));
        file.append(buf, 0, length + TableFormat.BLOCK_TRAILER_LENGTH);
        long at = offset;
        offset += length + TableFormat.BLOCK_TRAILER_LENGTH;
        return at;
    }
}
