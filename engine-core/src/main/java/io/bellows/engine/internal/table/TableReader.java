package io.bellows.engine.internal.table;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An open SSTable (spec: docs/formats/sstable.md). Opening verifies the header and footer and loads
 * the index block, bloom filter and properties, which stay in memory; data blocks are read on demand
 * through the {@link BlockCache}, their CRC verified on every read from the file.
 *
 * <p>Thread safety: safe for concurrent use (state is immutable after open; the file supports
 * concurrent positional reads). Iterators it returns are single-threaded.
 */
public final class TableReader implements OpenTable {
    /** A point lookup's index and data block iterators, per thread: a get allocates neither. */
    private static final ThreadLocal<BlockIterator[]> LOOKUP_ITERATORS =
            ThreadLocal.withInitial(() -> new BlockIterator[] {new BlockIterator(), new BlockIterator()});
    private final ReadableFile file;
    private final Path path;
    private final long fileNumber;
    private final BlockCache cache;
    private final EngineCounters counters;
    private final Block index;
    private final BloomFilter filter;
    private final TableProperties properties;
    /** Data blocks lie in [header end, dataEnd). */
    private final long dataEnd;
    /** Whether data blocks may be compressed (format version 2 and later). */
    private final boolean compressedBlocks;

    private TableReader(ReadableFile file, Path path, long fileNumber, BlockCache cache, EngineCounters counters,
            Block index, BloomFilter filter, TableProperties properties, long dataEnd, int version) {
        this.file = file;
        this.path = path;
        this.fileNumber = fileNumber;
        this.cache = cache;
        this.counters = counters;
        this.index = index;
        this.filter = filter;
        this.properties = properties;
        this.dataEnd = dataEnd;
        this.compressedBlocks = version >= TableFormat.COMPRESSED_BLOCKS_VERSION;
    }

    /**
     * Opens a table. The reader owns {@code file} from here on: it is closed by {@link #close} or, if
     * opening fails, before this method throws.
     *
     * @throws CorruptionException naming {@code path} and an offset if the header, footer or a meta
     *     block is damaged, of another kind or version, or the file is truncated
     */
    public static TableReader open(ReadableFile file, Path path, long fileNumber, BlockCache cache,
            EngineCounters counters) throws IOException {
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(counters, "counters");
        try {
            long size = file.size();
            byte[] header = readFully(file, path, 0, (int) Math.min(size, FileHeader.LENGTH));
            int version = FileHeader.check(header, 0, header.length, path, FileHeader.KIND_SSTABLE,
                    TableFormat.MIN_READ_VERSION, TableFormat.MAX_READ_VERSION);
            if (size < FileHeader.LENGTH + TableFormat.FOOTER_LENGTH) {
                throw new CorruptionException(path, size, "file of " + size + " bytes is too short for a table");
            }
            long footerAt = size - TableFormat.FOOTER_LENGTH;
            Footer footer = Footer.decode(readFully(file, path, footerAt, TableFormat.FOOTER_LENGTH), path, size,
                    version);

            byte[] indexBytes = readVerified(file, path, footer.index(), counters);
            Block index = new Block(indexBytes, footer.index().size(), path, footer.index().offset());

            BlockHandle p = footer.properties();
            TableProperties properties = PropertiesBlock.decode(readVerified(file, path, p, counters), p.size(), size,
                    path, p.offset());

            BloomFilter filter = null;
            long dataEnd = p.offset();
            BlockHandle f = footer.filter();
            if (f != null) {
                try {
                    filter = BloomFilter.decode(readVerified(file, path, f, counters), 0, f.size());
                } catch (IllegalArgumentException e) {
                    throw new CorruptionException(path, f.offset(), "malformed filter block: " + e.getMessage());
                }
                dataEnd = f.offset();
            }
            return new TableReader(file, path, fileNumber, cache, counters, index, filter, properties, dataEnd,
                    version);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * What a reader keeps in memory of a table its writer has just finished: the writer still holds it,
     * so the table can be opened without reading it back ({@link TableBuilder#written}).
     */
    public static final class Written implements WrittenTable {
        private final Block index;
        private final BloomFilter filter;
        private final TableProperties properties;
        private final long dataEnd;

        Written(Block index, BloomFilter filter, TableProperties properties, long dataEnd) {
            this.index = index;
            this.filter = filter;
            this.properties = properties;
            this.dataEnd = dataEnd;
        }

        @Override
        public OpenTable open(ReadableFile file, Path path, long number, BlockCache cache, EngineCounters counters) {
            return TableReader.open(this, file, path, number, cache, counters);
        }
    }

    /**
     * A reader of a table this build has just written, from its writer's {@link Written} parts instead
     * of the file's index, filter and properties blocks. RocksDB likewise opens each table right after
     * writing it; without this a table compaction never reads back (most of a last level) is opened by
     * the first get that reaches it, three block reads on that get. The reader owns {@code file}.
     */
    public static TableReader open(Written written, ReadableFile file, Path path, long fileNumber, BlockCache cache,
            EngineCounters counters) {
        return new TableReader(file, path, fileNumber, Objects.requireNonNull(cache, "cache"),
                Objects.requireNonNull(counters, "counters"), written.index, written.filter, written.properties,
                written.dataEnd, TableFormat.VERSION);
    }

    public TableProperties properties() {
        return properties;
    }

    @Override
    public long deletions() {
        return properties.deletions();
    }

    /** The properties' raw key bytes without the 8-byte trailers, plus raw value bytes. */
    @Override
    public long userDataBytes() {
        return properties.rawKeyBytes() - (long) TableFormat.KEY_TRAILER_LENGTH * properties.entries()
                + properties.rawValueBytes();
    }

    @Override
    public byte[] schemeMetadata() {
        return properties().schemeMetadata();
    }

    public long fileNumber() {
        return fileNumber;
    }

    /** Bytes of the data blocks (with their trailers), for tools. */
    public long dataBytes() {
        return dataEnd - FileHeader.LENGTH;
    }

    /** Data blocks, counted through the index (a walk of the index block: for tools, not reads). */
    public int dataBlocks() {
        BlockIterator it = index.iterator();
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
            n++;
        }
        return n;
    }

    /** Bytes of the bloom filter, 0 without one. */
    public int filterBytes() {
        return filter == null ? 0 : filter.encodedLength();
    }

    public Path path() {
        return path;
    }

    /** The bloom filter's verdict on {@code userKey}; true when the table has no filter. */
    public boolean mayContain(byte[] userKey) {
        return filter == null || filter.mayContain(userKey);
    }

    /**
     * Finds the newest entry of {@code userKey} with a sequence at most {@code seq}: the first entry at
     * or after {@code (userKey, seq)} in internal order, if it has this user key.
     *
     * @param fillCache whether a data block read from the file is added to the block cache
     * @return true, with {@code out} filled (value null for a DELETE), iff such an entry exists
     */
    @Override
    public boolean get(byte[] userKey, long seq, boolean fillCache, Lookup out) throws IOException {
        return get(userKey, seq, fillCache, out, null);
    }

    /** {@link #get}, first looking for the data block in {@code memo} (if not null) and remembering it there. */
    public boolean get(byte[] userKey, long seq, boolean fillCache, Lookup out, BlockMemo memo) throws IOException {
        if (filter != null && !filter.mayContain(userKey)) {
            counters.bloomNegatives.increment();
            return false;
        }
        BlockIterator[] its = LOOKUP_ITERATORS.get();
        BlockIterator indexIterator = its[0].reset(index);
        BlockIterator it = its[1];
        try {
            indexIterator.seek(userKey, seq);
            if (!indexIterator.isValid()) {
                return false;
            }
            long offset = indexIterator.handleOffset();
            Block block = memo == null ? null : memo.get(fileNumber, offset);
            if (block == null) {
                block = dataBlock(indexIterator, fillCache);
                if (memo != null) {
                    memo.remember(fileNumber, offset, block);
                }
            }
            it.reset(block);
            it.seek(userKey, seq);
            // NB: a target past the block's last entry but not past its index key cannot be in the next
            // block: the index key is either that last entry (then nothing lies between) or (s, MAX_SEQUENCE)
            // with s before the next block's first user key, so the target's user key is before it too.
            if (!it.isValid() || !it.userKeyEquals(userKey)) {
                return false;
            }
            int kind = it.kind();
            if (kind == InternalKeys.KIND_PUT) {
                // The value stays in the block's array (never modified, kept alive by the reference): the
                // reader copies it once, into its result or the caller's buffer.
                out.set(it.sequence(), kind, it.data(), it.valueOffset(), it.valueLength());
            } else {
                out.set(it.sequence(), kind, null);
            }
            return true;
        } finally {
            indexIterator.clear();
            it.clear();
        }
    }

    /** An iterator over all entries; {@code fillCache} says whether blocks it reads enter the cache. */
    @Override
    public InternalIterator iterator(boolean fillCache) {
        return new TableIterator(this, fillCache);
    }

    /** Closes the file; an I/O error surfaces as {@link EngineIOException}. */
    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            throw new EngineIOException("closing table " + path, e);
        }
    }

    Block index() {
        return index;
    }

    /**
     * The data block the index entry under {@code indexEntry} names: from the cache, found by the offset
     * alone (nothing allocated), or verified from the file.
     */
    Block dataBlock(BlockIterator indexEntry, boolean fillCache) throws IOException {
        return dataBlock(indexEntry, fillCache, null);
    }

    /**
     * {@link #dataBlock(BlockIterator, boolean)}, reading the file through {@code ahead} when it is not
     * null (an iterator that walks the blocks in order).
     */
    Block dataBlock(BlockIterator indexEntry, boolean fillCache, Readahead ahead) throws IOException {
        return dataBlock(indexEntry, fillCache, ahead, null);
    }

    /**
     * As above; a block read from the file goes into {@code buffers} when it is not null (an iterator
     * that does not fill the cache, whose last block it then overwrites).
     */
    Block dataBlock(BlockIterator indexEntry, boolean fillCache, Readahead ahead, BlockBuffers buffers)
            throws IOException {
        long offset = indexEntry.handleOffset();
        Block block = cache.get(fileNumber, offset);
        if (block != null) {
            counters.blockCacheHits.increment();
            if (ahead != null) {
                ahead.cacheHit();
            }
            return block;
        }
        if (buffers != null && !fillCache) {
            // The handle decoded in place: an iterator reading into buffers allocates nothing per block.
            int size = indexEntry.handleSize();
            checkHandle(offset, size);
            return readDataBlock(offset, size, ahead, buffers);
        }
        return loadDataBlock(indexEntry.handle(), fillCache, ahead);
    }

    /** Reads the data block at {@code handle} from the file (it was not in the cache), caching it if asked to. */
    Block loadDataBlock(BlockHandle handle, boolean fillCache) throws IOException {
        return loadDataBlock(handle, fillCache, null);
    }

    private Block loadDataBlock(BlockHandle handle, boolean fillCache, Readahead ahead) throws IOException {
        checkHandle(handle.offset(), handle.size());
        Block block = readDataBlock(handle.offset(), handle.size(), ahead, null);
        if (fillCache) {
            cache.put(fileNumber, handle.offset(), block);
        }
        return block;
    }

    private void checkHandle(long offset, int size) {
        if (offset < FileHeader.LENGTH || offset > dataEnd - size - TableFormat.BLOCK_TRAILER_LENGTH) {
            throw new CorruptionException(path, offset, "data block handle (" + offset + ", " + size
                    + ") lies outside the data region [" + FileHeader.LENGTH + ", " + dataEnd + ")");
        }
    }

    /**
     * Reads a block and its trailer, checks the CRC and that the block is stored raw, and returns the
     * bytes: contents in [0, size), trailer after them. REQUIRES: the handle lies inside the file.
     */
    private static byte[] readVerified(ReadableFile file, Path path, BlockHandle handle, EngineCounters counters)
            throws IOException {
        byte[] b = readChecked(file, path, handle, counters);
        if (b[handle.size()] != TableFormat.BLOCK_TYPE_RAW) {
            throw new CorruptionException(path, handle.offset() + handle.size(), "unknown block type "
                    + b[handle.size()]);
        }
        return b;
    }

    /** Reads a block and its trailer and checks the CRC (which covers the contents and the type byte). */
    private static byte[] readChecked(ReadableFile file, Path path, BlockHandle handle, EngineCounters counters)
            throws IOException {
        return checked(readFully(file, path, handle.offset(), handle.size() + TableFormat.BLOCK_TRAILER_LENGTH),
                path, handle, counters);
    }

    /** Checks the CRC of a block and trailer read from the file. */
    private static byte[] checked(byte[] b, Path path, BlockHandle handle, EngineCounters counters) {
        return checked(b, path, handle.offset(), handle.size(), counters);
    }

    /** Checks the CRC of the block of {@code size} bytes at {@code offset} and its trailer, read into {@code b}. */
    private static byte[] checked(byte[] b, Path path, long offset, int size, EngineCounters counters) {
        counters.blockReads.increment();
        int stored = Checksums.unmask(Coding.getInt(b, size + 1));
        if (stored != Checksums.crc32c(b, 0, size + 1)) {
            throw new CorruptionException(path, offset, "block checksum mismatch");
        }
        return b;
    }

    /**
     * A data block read from the file, through {@code ahead} if not null: stored raw, or (from version 2
     * on) compressed.
     */
    private Block readDataBlock(long offset, int size, Readahead ahead, BlockBuffers buffers) throws IOException {
        int length = size + TableFormat.BLOCK_TRAILER_LENGTH;
        byte[] read;
        try {
            if (buffers == null) {
                read = ahead == null ? file.read(offset, length) : ahead.read(file, offset, length, dataEnd);
            } else if (ahead == null) {
                read = buffers.stored(length);
                file.read(offset, read, 0, length);
            } else {
                read = ahead.read(file, offset, length, dataEnd, buffers.stored(length));
            }
        } catch (EOFException e) {
            throw new CorruptionException(path, offset, "file ends inside a " + length + "-byte read", e);
        }
        byte[] b = checked(read, path, offset, size, counters);
        byte type = b[size];
        if (!compressedBlocks && type != TableFormat.BLOCK_TYPE_RAW) {
            throw new CorruptionException(path, offset + size, "unknown block type " + type);
        }
        if (type == TableFormat.BLOCK_TYPE_RAW) {
            return buffers == null ? new Block(b, size, path, offset) : buffers.block(b, size, path, offset);
        }
        byte[] raw = BlockCodec.decompress(type, b, size, path, offset, buffers);
        return buffers == null ? new Block(raw, raw.length, path, offset)
                : buffers.block(raw, buffers.rawLength(), path, offset);
    }

    private static byte[] readFully(ReadableFile file, Path path, long position, int length) throws IOException {
        try {
            return file.read(position, length);
        } catch (EOFException e) {
            throw new CorruptionException(path, position, "file ends inside a " + length + "-byte read", e);
        }
    }
}
