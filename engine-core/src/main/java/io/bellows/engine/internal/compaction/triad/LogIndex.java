package io.bellows.engine.internal.compaction.triad;

import com.carrotsearch.hppc.LongLongHashMap;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.LogPositions;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where each PUT of a flush's logs lies, by sequence: read back from the logs on the flush thread. A
 * sequence names one write, so the flush finds the record of each version it keeps without the MemStore
 * keeping a position per entry (docs/architecture.md, TRIAD-LOG). A position packs the log's index in
 * the list (16 bits), the chunk's file offset (33 bits) and the operation's offset in the chunk's payload
 * (15 bits, below the 32 KiB block).
 */
final class LogIndex {
    private static final Logger LOG = LoggerFactory.getLogger(LogIndex.class);
    static final int MAX_LOGS = 1 << 16;
    static final long MAX_CHUNK_OFFSET = 1L << 33;

    private final LongLongHashMap bySequence = new LongLongHashMap();

    private LogIndex() {}

    /**
     * Reads {@code logs} of {@code dir}. A log that is missing or damaged contributes the operations of its
     * intact prefix (none if missing): the flush then copies the versions it cannot point at into the index.
     */
    static LogIndex read(Path dir, FileSystem fs, long[] logs) throws IOException {
        LogIndex index = new LogIndex();
        for (int i = 0; i < logs.length && i < MAX_LOGS; i++) {
            Path path = FileNames.log(dir, logs[i]);
            if (!fs.exists(path)) {
                continue;
            }
            long logIndex = i;
            try (ReadableFile f = fs.openLog(path)) {
                long end = LogPositions.scan(f, path, (seq, kind, chunk, off) -> {
                    if (kind == InternalKeys.KIND_PUT && chunk < MAX_CHUNK_OFFSET) {
                        index.bySequence.put(seq, logIndex << 48 | chunk << 15 | off);
                    }
                });
                if (end < f.size()) {
                    LOG.warn("WAL {} reads intact up to offset {} of {}; the flush copies the versions it cannot find",
                            path, end, f.size());
                }
            } catch (CorruptionException e) {
                LOG.warn("WAL {} cannot be indexed; the flush copies its versions", path, e);
            }
        }
        return index;
    }

    /** The position of the PUT with sequence {@code seq}, or -1 if no log read holds it. */
    long position(long seq) {
        return bySequence.getOrDefault(seq, -1);
    }

    static int logIndex(long position) {
        return (int) (position >>> 48);
    }

    static long chunkOffset(long position) {
        return (position >>> 15) & (MAX_CHUNK_OFFSET - 1);
    }

    static int offsetInChunk(long position) {
        return (int) (position & 0x7fff);
    }
}
