package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link EngineStats} parts assembled from the figures a source other than Bellows has (RocksDB's
 * statistics, results.json): figures it does not have are 0.
 */
final class BenchStats {
    private static final EngineStats.Segments NO_SEGMENTS = new EngineStats.Segments(0, 0, 0);

    private BenchStats() {}

    /** A MemStore known only by its size, memory and chunk pool: no segment figures, no in-memory work. */
    static EngineStats.MemStore memstore(long dataBytes, long heapBytes, long offHeapBytes, long chunksInUse,
            long chunksFree, long chunkPoolOffHeapBytes) {
        return new EngineStats.MemStore(dataBytes, heapBytes, offHeapBytes, NO_SEGMENTS, NO_SEGMENTS, NO_SEGMENTS, 0,
                0, 0, 0, 0, 0, 0, 0, 0, chunksInUse, chunksFree, chunkPoolOffHeapBytes);
    }

    /** Levels from parallel arrays of bytes and table counts, level 0 first, their user data unknown. */
    static EngineStats.Levels levels(long[] bytes, int[] tables) {
        long[] unknown = new long[bytes.length];
        Arrays.fill(unknown, -1);
        return levels(bytes, tables, unknown);
    }

    /** Levels from parallel arrays of bytes, table counts and user data bytes (-1: unknown), level 0 first. */
    static EngineStats.Levels levels(long[] bytes, int[] tables, long[] userBytes) {
        if (bytes.length != tables.length) {
            throw new IllegalArgumentException(bytes.length + " level sizes but " + tables.length + " table counts");
        }
        List<EngineStats.Level> levels = new ArrayList<>(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            levels.add(new EngineStats.Level(i, tables[i], bytes[i], userBytes[i]));
        }
        return new EngineStats.Levels(levels);
    }
}
