package io.bellows.engine.internal.inspect;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A closed store's manifest, read without opening the store: CURRENT, then every version edit of the
 * manifest it names, decoded by the engine's own readers ({@link LogReader}, {@link VersionEdit#decode})
 * and replayed into the live tables. Writes nothing, needs no scheme: the tools' view of a store.
 */
public final class ManifestView {
    /** One decoded edit and the offset of its record in the manifest. */
    public record Edit(long offset, VersionEdit edit) {}

    /** A table of the current version, with its level and its scheme placement (guard, container). */
    public record LiveTable(int level, long placement, FileMeta meta) {}

    private final Path manifest;
    private final List<Edit> edits;
    private final SortedMap<Long, LiveTable> tables;
    private final String scheme;
    private final long logNumber;
    private final long nextFileNumber;
    private final long lastSequence;
    private final long tornTailOffset;

    private ManifestView(Path manifest, List<Edit> edits, SortedMap<Long, LiveTable> tables, String scheme,
            long logNumber, long nextFileNumber, long lastSequence, long tornTailOffset) {
        this.manifest = manifest;
        this.edits = edits;
        this.tables = tables;
        this.scheme = scheme;
        this.logNumber = logNumber;
        this.nextFileNumber = nextFileNumber;
        this.lastSequence = lastSequence;
        this.tornTailOffset = tornTailOffset;
    }

    /**
     * Reads the manifest of the store in {@code dir}.
     *
     * @throws CorruptionException naming the file and offset if CURRENT or the manifest is damaged, or an
     *     edit deletes a table that is not live
     */
    public static ManifestView read(FileSystem fs, Path dir) throws IOException {
        Path current = dir.resolve(FileNames.CURRENT);
        if (!fs.exists(current)) {
            throw new IllegalArgumentException(dir + " holds no Bellows store (no " + FileNames.CURRENT + " file)");
        }
        Path manifest = dir.resolve(VersionSet.readCurrent(fs, current));
        if (!fs.exists(manifest)) {
            throw new CorruptionException(current, FileHeader.LENGTH, "names " + manifest.getFileName()
                    + ", which does not exist");
        }
        LogReader reader = new LogReader(fs.readAll(manifest), manifest, FileHeader.KIND_MANIFEST);
        List<Edit> edits = new ArrayList<>();
        SortedMap<Long, LiveTable> tables = new TreeMap<>();
        String scheme = null;
        long logNumber = -1;
        long nextFile = -1;
        long lastSeq = -1;
        byte[] record;
        while ((record = reader.next()) != null) {
            long offset = reader.lastRecordOffset();
            VersionEdit e = VersionEdit.decode(record, manifest, offset);
            edits.add(new Edit(offset, e));
            scheme = e.scheme() != null ? e.scheme() : scheme;
            logNumber = e.logNumber() >= 0 ? e.logNumber() : logNumber;
            nextFile = e.nextFileNumber() >= 0 ? e.nextFileNumber() : nextFile;
            lastSeq = e.lastSequence() >= 0 ? e.lastSequence() : lastSeq;
            for (VersionEdit.DeletedFile d : e.deletedFiles()) {
                LiveTable t = tables.remove(d.number());
                if (t == null || t.level() != d.level()) {
                    throw new CorruptionException(manifest, offset, "deletes table " + d.number() + " from level "
                            + d.level() + ", where it is not live");
                }
            }
            for (VersionEdit.NewFile n : e.newFiles()) {
                tables.put(n.meta().number, new LiveTable(n.level(), n.placement(), n.meta()));
            }
        }
        if (scheme == null) {
            throw new CorruptionException(manifest, reader.validLength(), "manifest lacks the scheme name");
        }
        return new ManifestView(manifest, List.copyOf(edits), Collections.unmodifiableSortedMap(tables), scheme,
                logNumber, nextFile, lastSeq, reader.tornTailOffset());
    }

    public Path manifest() {
        return manifest;
    }

    public List<Edit> edits() {
        return edits;
    }

    /** The live tables by file number. */
    public SortedMap<Long, LiveTable> tables() {
        return tables;
    }

    public String scheme() {
        return scheme;
    }

    /** Logs numbered below this hold nothing the tables lack. */
    public long logNumber() {
        return logNumber;
    }

    public long nextFileNumber() {
        return nextFileNumber;
    }

    public long lastSequence() {
        return lastSequence;
    }

    /** Where a torn last record (a write a crash interrupted) was cut, or -1. */
    public long tornTailOffset() {
        return tornTailOffset;
    }

    /** The deepest level holding a table, or -1 if none does. */
    public int deepestLevel() {
        int d = -1;
        for (LiveTable t : tables.values()) {
            d = Math.max(d, t.level());
        }
        return d;
    }
}
