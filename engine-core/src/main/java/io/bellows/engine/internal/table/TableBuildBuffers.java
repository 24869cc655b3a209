package io.bellows.engine.internal.table;

import com.carrotsearch.hppc.LongArrayList;
import io.bellows.engine.internal.util.Bytes;
import java.util.Arrays;

/**
 * What a {@link TableBuilder} reuses from one table to the next: the filter's key hashes, the filter
 * itself, and the data and index block builders. A flush or compaction that writes many tables hands
 * one instance to each builder in turn, so that these grow once per job instead of once per table (the
 * key-hash list alone, 8 bytes a key and every array it outgrew, was most of what a compaction allocated
 * per entry). A builder owns the buffers from its construction until it is finished or abandoned.
 *
 * <p>Not safe for concurrent use: one builder at a time.
 */
public final class TableBuildBuffers {
    final LongArrayList keyHashes = new LongArrayList();
    private final BlockBuilder index = new BlockBuilder(TableFormat.INDEX_RESTART_INTERVAL);
    private BlockBuilder data;
    private byte[] filter = Bytes.EMPTY;

    /** The data block builder, empty, for blocks with {@code restartInterval}. */
    BlockBuilder data(int restartInterval) {
        if (data == null || data.restartInterval() != restartInterval) {
            data = new BlockBuilder(restartInterval);
        }
        data.reset();
        return data;
    }

    /** The index block builder, empty. */
    BlockBuilder index() {
        index.reset();
        return index;
    }

    /** The filter array as the last builder left it (its filter, until the next one asks for {@link #zeroed}). */
    byte[] filter() {
        return filter;
    }

    /** An array whose first {@code length} bytes are zero, at least that long. */
    byte[] zeroed(int length) {
        if (filter.length < length) {
            filter = new byte[length];
        } else {
            Arrays.fill(filter, 0, length, (byte) 0);
        }
        return filter;
    }
}
