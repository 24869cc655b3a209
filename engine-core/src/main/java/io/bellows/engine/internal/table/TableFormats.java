package io.bellows.engine.internal.table;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table-format registry of one engine: file-header kind to the opener of that format. SSTables are
 * the base format; a scheme that writes another format registers its opener (with whatever caches it
 * owns) when the engine starts. A kind nobody registered is opened as an SSTable, whose reader rejects
 * the header with a {@link CorruptionException} naming the file and offset.
 */
public final class TableFormats {
    /** Opens one table file of a format; the opener verifies the header and owns {@code file} on success. */
    @FunctionalInterface
    public interface Opener {
        OpenTable open(ReadableFile file, Path path, long number) throws IOException;
    }

    private final BlockCache blockCache;
    private final EngineCounters counters;
    private final FileSystem fs;
    private final Opener base;
    private final Map<Integer, Opener> openers = new ConcurrentHashMap<>();

    public TableFormats(BlockCache blockCache, EngineCounters counters, FileSystem fs) {
        this.blockCache = blockCache;
        this.counters = counters;
        this.fs = fs;
        this.base = (file, path, number) -> TableReader.open(file, path, number, blockCache, counters);
        openers.put(FileHeader.KIND_SSTABLE, base);
    }

    /** The engine's block cache, for the readers of registered formats to share. */
    public BlockCache blockCache() {
        return blockCache;
    }

    /** The store's file system, for formats whose tables read other files of the store (the logs a CL-table points into). */
    public FileSystem fileSystem() {
        return fs;
    }

    /** Registers the opener of files whose header kind is {@code kind}; a kind is registered once. */
    public void register(int kind, Opener opener) {
        if (openers.putIfAbsent(kind, opener) != null) {
            throw new IllegalStateException("table kind " + kind + " is already registered");
        }
    }

    /** Registers {@code opener} for {@code kind} unless a format is registered for it already (tools). */
    public void registerIfAbsent(int kind, Opener opener) {
        openers.putIfAbsent(kind, opener);
    }

    /** The registered openers by kind (SSTables' included). */
    public Map<Integer, Opener> registered() {
        return Map.copyOf(openers);
    }

    /** A reader over {@code file}, built from what its writer kept; it owns {@code file} unless this throws. */
    public OpenTable openWritten(WrittenTable written, ReadableFile file, Path path, long number) throws IOException {
        return written.open(file, path, number, blockCache, counters);
    }

    /** Opens {@code file} with the opener its header's kind names. */
    public OpenTable open(ReadableFile file, Path path, long number) throws IOException {
        if (file.size() < FileHeader.LENGTH) {
            throw new CorruptionException(path, 0, "file too short for a header (" + file.size() + " bytes)");
        }
        int kind = Coding.getShort(file.read(0, FileHeader.LENGTH), 8);
        return openers.getOrDefault(kind, base).open(file, path, number);
    }
}
