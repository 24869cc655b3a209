package io.bellows.engine.internal.table;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import java.io.IOException;

/**
 * Iterates a table as two levels: a cursor over the index block picks the data block, a cursor over
 * that block yields entries. Only the current data block is pinned. I/O errors surface as
 * {@link EngineIOException}, damage as {@link io.bellows.engine.CorruptionException}.
 *
 * <p>Thread safety: one thread at a time.
 */
final class TableIterator implements InternalIterator {
    private final TableReader table;
    private final boolean fillCache;
    private final BlockIterator indexIterator;
    /** Cursor over the data block the index cursor points at; null when there is none. */
    private BlockIterator dataIterator;
    /** The one iterator {@link #dataIterator} is whenever set: moving to another block reuses it. */
    private final BlockIterator blockIterator = new BlockIterator();
    private long dataBlockOffset = -1;
    private final Readahead readahead = new Readahead();
    /** Where blocks read from the file go when the cache is not filled; null when it is. */
    private final BlockBuffers buffers;

    TableIterator(TableReader table, boolean fillCache) {
        this.table = table;
        this.fillCache = fillCache;
        this.buffers = fillCache ? null : new BlockBuffers();
        this.indexIterator = table.index().iterator();
    }

    @Override
    public boolean isValid() {
        return dataIterator != null && dataIterator.isValid();
    }

    @Override
    public void seekToFirst() {
        readahead.position(!fillCache);
        indexIterator.seekToFirst();
        loadDataBlock();
        if (dataIterator != null) {
            dataIterator.seekToFirst();
        }
        skipExhaustedBlocks();
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        readahead.position(false);
        indexIterator.seek(userKey, sequence);
        loadDataBlock();
        if (dataIterator != null) {
            dataIterator.seek(userKey, sequence);
        }
        skipExhaustedBlocks();
    }

    @Override
    public void seekToLast() {
        readahead.position(false);
        indexIterator.seekToLast();
        loadDataBlock();
        if (dataIterator != null) {
            dataIterator.seekToLast();
        }
        skipExhaustedBlocksBackward();
    }

    /**
     * The index seek finds the first block whose separator is at or after the target; the entry
     * wanted is in it or, when all of that block's entries are after the target, the last of the block
     * before (whose separator, and so every key, is before the target).
     */
    @Override
    public void seekForPrev(byte[] userKey, long sequence) {
        readahead.position(false);
        indexIterator.seek(userKey, sequence);
        if (!indexIterator.isValid()) {
            seekToLast();
            return;
        }
        loadDataBlock();
        dataIterator.seekForPrev(userKey, sequence);
        skipExhaustedBlocksBackward();
    }

    @Override
    public void next() {
        dataIterator.next();
        skipExhaustedBlocks();
    }

    @Override
    public void prev() {
        dataIterator.prev();
        skipExhaustedBlocksBackward();
    }

    @Override
    public byte[] key() {
        return dataIterator.userKey();
    }

    @Override
    public Slice keySlice() {
        return dataIterator.userKeySlice();
    }

    @Override
    public Slice valueSlice() {
        return dataIterator.valueSlice();
    }

    @Override
    public long sequence() {
        return dataIterator.sequence();
    }

    @Override
    public int kind() {
        return dataIterator.kind();
    }

    @Override
    public byte[] value() {
        return dataIterator.value();
    }

    @Override
    public void close() {
        dataIterator = null;
        dataBlockOffset = -1;
        readahead.release();
    }

    /** Moves to the first entry of the following blocks while the current block is used up. */
    private void skipExhaustedBlocks() {
        while (dataIterator != null && !dataIterator.isValid()) {
            indexIterator.next();
            loadDataBlock();
            if (dataIterator != null) {
                dataIterator.seekToFirst();
            }
        }
    }

    /** Moves to the last entry of the preceding blocks while the current block is used up. */
    private void skipExhaustedBlocksBackward() {
        while (dataIterator != null && !dataIterator.isValid()) {
            indexIterator.prev();
            loadDataBlock();
            if (dataIterator != null) {
                dataIterator.seekToLast();
            }
        }
    }

    private void loadDataBlock() {
        if (!indexIterator.isValid()) {
            dataIterator = null;
            dataBlockOffset = -1;
            return;
        }
        long offset = indexIterator.handleOffset();
        if (dataIterator != null && offset == dataBlockOffset) {
            return;
        }
        dataIterator = null;
        try {
            // The next block may overwrite this one's array (buffers): the iterator is unpositioned until it is read.
            dataIterator = blockIterator.reset(table.dataBlock(indexIterator, fillCache, readahead, buffers));
        } catch (IOException e) {
            throw new EngineIOException("reading table " + table.path() + " at offset " + offset, e);
        }
        dataBlockOffset = offset;
    }
}
