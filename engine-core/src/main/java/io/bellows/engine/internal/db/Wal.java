package io.bellows.engine.internal.db;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current WAL file: appends by the write leader, forces for SYNC groups and for the background
 * syncer of ASYNC writes, and switching to a new log file.
 *
 * <p>A failed append or force marks the log broken: nothing more is appended to it (a record after
 * a half-written one would turn a torn tail into mid-log corruption) and {@link #needsRoll()} tells
 * the leader to start a new log before the next logged group. Recovery cuts the partial record as the
 * torn tail of the older log.
 *
 * <p>Thread safety: every operation holds {@link #lock}; the leader and the syncer are the only users.
 */
final class Wal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Wal.class);

    private final Path dir;
    private final FileSystem fs;
    private final ReentrantLock lock = new ReentrantLock();
    private LogWriter writer;
    private long number;
    /** Highest sequence of a record appended (or attempted) to the current log; 0 if none. */
    private long maxSequence;
    private boolean dirty;
    private boolean broken;

    /** Creates log {@code number} and makes it current. */
    Wal(Path dir, FileSystem fs, long number) throws IOException {
        this.dir = dir;
        this.fs = fs;
        this.writer = create(number);
        this.number = number;
    }

    /**
     * Appends one record holding sequences up to {@code lastSequence}, then forces it ({@code sync}) or
     * hands it to the OS.
     */
    void append(byte[] record, boolean sync, long lastSequence) throws IOException {
        append(record, record.length, sync, lastSequence);
    }

    /** Appends {@code record[0, length)} as one record, as {@link #append(byte[], boolean, long)}. */
    void append(byte[] record, int length, boolean sync, long lastSequence) throws IOException {
        lock.lock();
        try {
            // Counted before the write: a record that half failed may still be replayed.
            maxSequence = Math.max(maxSequence, lastSequence);
            writer.addRecord(record, 0, length);
            if (sync) {
                writer.sync();
                dirty = false;
            } else {
                writer.flush();
                dirty = true;
            }
        } catch (IOException e) {
            broken = true;
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /** Number of the current log. */
    long number() {
        lock.lock();
        try {
            return number;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes in the current log. */
    long size() {
        lock.lock();
        try {
            return writer.size();
        } finally {
            lock.unlock();
        }
    }

    /** Highest sequence appended to the current log (0 if none). */
    long maxSequence() {
        lock.lock();
        try {
            return maxSequence;
        } finally {
            lock.unlock();
        }
    }

    boolean needsRoll() {
        lock.lock();
        try {
            return broken;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes log {@code number} current. Its directory entry is durable before any write goes to it, so
     * a SYNC write acknowledged in it cannot vanish with its file. The old log is forced first, so that
     * a machine crash cannot lose its tail while a later log survives (writes are never reordered); if it
     * is broken that is best effort, and its unsynced tail was never acknowledged as SYNC.
     *
     * @return whether the old log is known to be forced to its end (its ASYNC records survive a crash)
     */
    boolean roll(long number) throws IOException {
        LogWriter next = create(number);
        lock.lock();
        try {
            // A broken log may have lost its tail already (a failed append or force), whatever this force says.
            boolean forced = !broken;
            try {
                writer.sync();
            } catch (IOException e) {
                forced = false;
                if (!broken) {
                    LOG.warn("forcing the WAL before switching logs failed", e);
                }
            }
            try {
                writer.close();
            } catch (IOException e) {
                LOG.warn("closing the old WAL failed", e);
            }
            writer = next;
            this.number = number;
            maxSequence = 0;
            dirty = false;
            broken = false;
            return forced;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forces log {@code expected} if it is still the current one, waiting for an append in progress.
     * False if it is not current any more, is broken, or the force failed: its tail may then be lost.
     */
    boolean force(long expected) {
        lock.lock();
        try {
            if (number != expected || broken || writer == null) {
                return false;
            }
            if (dirty) {
                writer.sync();
                dirty = false;
            }
            return true;
        } catch (IOException e) {
            broken = true;
            LOG.error("forcing the WAL failed; the next write starts a new log", e);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Forces what ASYNC writes appended since the last force; skipped while the leader holds the log. */
    void backgroundSync() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (dirty && !broken && writer != null) {
                writer.sync();
                dirty = false;
            }
        } catch (IOException e) {
            broken = true;
            LOG.error("background WAL sync failed; the next write starts a new log", e);
        } finally {
            lock.unlock();
        }
    }

    private LogWriter create(long number) throws IOException {
        WritableFile file = fs.createLog(FileNames.log(dir, number));
        try {
            // The file is closed on failure even when its header append is what failed (no LogWriter yet).
            LogWriter w = new LogWriter(file, FileHeader.KIND_WAL);
            w.sync();
            fs.syncDirectory(dir);
            return w;
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException ignored) {
                // already failing
            }
            throw e;
        }
    }

    /** Forces (unless broken) and closes the log. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (writer != null) {
                try {
                    if (!broken) {
                        writer.sync();
                    }
                } finally {
                    writer.close();
                    writer = null;
                }
            }
        } finally {
            lock.unlock();
        }
    }
}
