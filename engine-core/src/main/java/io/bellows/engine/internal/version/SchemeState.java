package io.bellows.engine.internal.version;

import java.util.Comparator;
import java.util.List;

/**
 * The compaction scheme's persistent state as the version set sees it: opaque records replayed on
 * recovery and re-emitted whole when a new manifest is started.
 */
public interface SchemeState {
    /**
     * Applies one record read from the manifest (or just logged). Throws IllegalStateException for a
     * malformed record; recovery reports it as a corrupt manifest.
     */
    void apply(byte[] record);

    /** Records that rebuild the current state from nothing. */
    List<byte[]> snapshot();

    /**
     * The order of the tables within {@code level} in every version: the order the scheme's lookups
     * and compactions rely on (e.g. newest first in an L0 of overlapping tables, by key in a level of
     * disjoint ones; {@link FileMeta#NEWEST_FIRST}, {@link FileMeta#BY_SMALLEST_KEY}).
     */
    Comparator<FileMeta> tableOrder(int level);

    /**
     * Completes {@code edit} against {@code base}, the version it will be applied to, just before it
     * is logged: a scheme may add records and set the placement of the tables it adds. Called under
     * the version set's lock, so what it decides cannot race with another edit.
     */
    default void prepare(Version base, VersionEdit edit) {}

    /**
     * The scheme's read-side index of {@code v} (e.g. guards with their tables), built once when the
     * version is installed, after the records of its edit were applied; {@link Version#schemeIndex()}
     * returns it. Null when the scheme needs none. Throws IllegalStateException when the scheme's state
     * and the tables of {@code v} disagree; recovery reports that as a corrupt manifest.
     */
    default Object index(Version v) {
        return null;
    }
}
