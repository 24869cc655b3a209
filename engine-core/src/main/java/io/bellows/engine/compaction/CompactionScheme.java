package io.bellows.engine.compaction;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.version.FileMeta;
import io.bellows.engine.version.SchemeState;
import io.bellows.engine.version.Version;
import io.bellows.engine.version.VersionEdit;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The disk-layer policy of a store (docs/architecture.md, "CompactionScheme SPI"). It decides where a
 * flushed table lands, which compaction runs next, which tables a point lookup probes and in what
 * order, how a cursor's sources are built, how hard writers must be held back, and what scheme state
 * the manifest keeps ({@link SchemeState}). The engine, the manifest, table I/O and compaction
 * execution are shared by every scheme.
 *
 * <p>Thread safety: {@link #candidates} and {@link #cursorSources} are called concurrently by readers
 * with versions they hold; the other methods are called under the engine's background lock.
 */
public interface CompactionScheme extends SchemeState {
    CompactionStyle style();

    /** Records in {@code edit} where a table written by a MemStore flush goes. */
    void placeFlush(Version current, FileMeta table, VersionEdit edit);

    /**
     * Appends to {@code out} the tables that may hold {@code key}, in the order a lookup must probe
     * them: every version of the key in an earlier table is newer than any in a later one, so the
     * first table with an entry visible at the read sequence decides the answer.
     */
    void candidates(Version v, byte[] key, List<FileMeta> out);

    /** Iterators that together cover every table of {@code v}, for a merged cursor. */
    List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException;

    /**
     * The most urgent compaction, or null if none is needed or every candidate touches a table in
     * {@code busy} (inputs of running compactions).
     */
    Compaction pick(Version v, Set<Long> busy);

    /**
     * A compaction of every table of {@code level} meeting {@code [from, to]} into the next level, or
     * null if there is none. Used by {@code compactRange}, which runs with no other compaction.
     */
    Compaction pickManual(Version v, int level, byte[] from, byte[] to);

    WritePressure pressure(Version v);

    /** Adds to {@code edit} the scheme's own state changes after {@code c} ran (e.g. compaction cursors). */
    void onCompacted(Compaction c, VersionEdit edit);

    /**
     * Sees each entry a MemStore flush writes, in key order, before {@link #placeFlush} is called for
     * the flush's tables (e.g. to choose FLSM guards from inserted keys). Flushes run one at a time.
     */
    default void observeFlushedKey(byte[] key, int kind) {}

    /**
     * A cursor was positioned by a seek at {@code key} while {@code lastSequence} was the latest write.
     * Returns true when this makes a compaction due (seek-based compaction), so the engine schedules
     * one. Called on the reader's thread without locks: must be cheap.
     */
    default boolean onSeek(byte[] key, long lastSequence) {
        return false;
    }
}
