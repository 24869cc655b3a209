package io.bellows.engine.internal.inspect;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.compaction.SchemeRegistry;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableFormats;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens the table files of a closed store through the engine's table-format registry, with the formats
 * the store's scheme registers (SSTables always; HTables under LSM_TRIE), as the engine itself would.
 */
public final class StoreTables {
    /** Blocks a tool reads are read once; a small cache only serves the readers' own meta blocks. */
    private static final long CACHE_BYTES = 1 << 20;

    private final FileSystem fs;
    private final EngineCounters counters = new EngineCounters();
    private final TableFormats formats;

    private StoreTables(FileSystem fs) {
        this.fs = fs;
        this.formats = new TableFormats(new BlockCache(CACHE_BYTES), counters, fs);
    }

    /**
     * The tables of a store whose manifest records {@code scheme}.
     *
     * @throws IllegalArgumentException if this build offers no such scheme
     */
    public static StoreTables of(FileSystem fs, String scheme) {
        StoreTables t = new StoreTables(fs);
        CompactionStyle style;
        try {
            style = CompactionStyle.valueOf(scheme);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the store uses compaction scheme " + scheme
                    + ", which this build does not offer", e);
        }
        SchemeRegistry.create(EngineOptions.builder().compaction(style).build()).registerTableFormats(t.formats, t.counters);
        return t;
    }

    /** Table files of any scheme's format, for a tool given a lone file. */
    public static StoreTables everyFormat(FileSystem fs) {
        StoreTables t = new StoreTables(fs);
        for (CompactionStyle style : CompactionStyle.values()) {
            TableFormats own = new TableFormats(t.formats.blockCache(), t.counters, fs);
            SchemeRegistry.create(EngineOptions.builder().compaction(style).build()).registerTableFormats(own, t.counters);
            own.registered().forEach((kind, opener) -> t.formats.registerIfAbsent(kind, opener));
        }
        return t;
    }

    /** Opens the table file at {@code path} by the format its header names; the caller closes it. */
    public OpenTable open(Path path, long number) throws IOException {
        return formats.open(fs.openTable(path), path, number);
    }

    /** Blocks read from files so far (each verified against its checksum). */
    public long blockReads() {
        return counters.blockReads.sum();
    }
}
