package io.bellows.engine.internal.db;

import com.carrotsearch.hppc.LongArrayList;
import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Deletes the files of a store directory that nothing needs any more: tables no live version holds
 * and no flush or compaction is writing, logs older than the manifest's log number that no table reads
 * ({@link CompactionScheme#liveLogs}), and (at open)
 * manifests other than the current one and temporary files.
 *
 * <p>Thread safety: sweeps are serialized; they run concurrently with flushes, compactions and
 * readers.
 */
final class ObsoleteFiles {
    private final Path dir;
    private final FileSystem fs;
    private final VersionSet versions;
    private final Set<Long> pendingOutputs;
    private final TableCache tables;
    private final CompactionScheme scheme;

    ObsoleteFiles(Path dir, FileSystem fs, VersionSet versions, Set<Long> pendingOutputs, TableCache tables,
            CompactionScheme scheme) {
        this.scheme = scheme;
        this.dir = dir;
        this.fs = fs;
        this.versions = versions;
        this.pendingOutputs = pendingOutputs;
        this.tables = tables;
    }

    /** Held off while a checkpoint copies files (RocksDB's DisableFileDeletions); counted, as they nest. */
    private int paused;

    /** Holds off sweeps until {@link #resume}; waits for a running sweep to finish. */
    synchronized void pause() {
        paused++;
    }

    synchronized void resume() {
        paused--;
    }

    synchronized void sweep(boolean atOpen) throws IOException {
        if (paused > 0) {
            // The files stay until the sweep scheduled at resume.
            return;
        }
        // Order matters. A table is registered as pending before its file is created and leaves the
        // pending set only after its version is installed. So every table file in the listing is, by the
        // time the pending set is read after the listing, either still pending or already installed, and
        // the live tables read last then include it.
        // The log number is read first: a flush that installs a table pointing into logs moves it past those
        // logs in the same edit, so a log below the number read here belongs to a table that is already in
        // the live tables read below (or to none), and the scheme names it among the live logs.
        long logNumber = versions.logNumber();
        List<String> names = fs.list(dir);
        LongArrayList pending = new LongArrayList(pendingOutputs.size());
        for (long n : pendingOutputs) {
            pending.add(n);
        }
        LongHashSet keep = versions.liveTables();
        keep.addAll(pending);
        LongHashSet liveLogs = new LongHashSet();
        scheme.liveLogs(keep::contains, liveLogs::add);
        long manifest = versions.manifestNumber();
        for (String name : names) {
            long table = FileNames.number(name, FileNames.TABLE_SUFFIX);
            long log = FileNames.number(name, FileNames.LOG_SUFFIX);
            long man = FileNames.manifestNumber(name);
            // Manifests are replaced (and the old one deleted) by the version set itself; only at open
            // are leftovers of failed switches removed, once CURRENT is known to be durable.
            boolean delete = (table >= 0 && !keep.contains(table))
                    || (log >= 0 && log < logNumber && !liveLogs.contains(log))
                    || (atOpen && man >= 0 && man != manifest)
                    || (atOpen && name.endsWith(FileNames.TEMP_SUFFIX));
            if (delete) {
                if (table >= 0) {
                    tables.evict(table);
                }
                fs.delete(dir.resolve(name));
                if (table >= 0) {
                    scheme.tableDeleted(table);
                }
            }
        }
    }
}
