package io.bellows.engine.internal.version;

import com.carrotsearch.hppc.LongHashSet;
import com.carrotsearch.hppc.LongLongHashMap;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.util.StripedPins;
import io.bellows.engine.internal.wal.LogReader;
import io.bellows.engine.internal.wal.LogWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manifest and the chain of versions it describes. Every change of the table set goes through
 * {@link #logAndApply}: the edit is appended to the manifest and synced before the new version is
 * installed, so what readers see is always what recovery will rebuild.
 *
 * <p>On open a new manifest is started holding a snapshot of the recovered state, and CURRENT is
 * switched to it by an atomic rename; the manifest is also rolled over when it grows past
 * {@link #MANIFEST_ROLL_BYTES}.
 *
 * <p>Thread safety: {@link #logAndApply} and the number allocators are synchronized; readers get the
 * current version through {@link #acquireCurrent()} without locking.
 */
public final class VersionSet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VersionSet.class);
    public static final int MANIFEST_VERSION = 1;
    public static final int CURRENT_VERSION = 1;
    static final long MANIFEST_ROLL_BYTES = 64L << 20;

    private final Path dir;
    private final FileSystem fs;
    private final int numLevels;
    private final SchemeState schemeState;
    private final Consumer<Version> onUnreferenced;
    private final Set<Version> live = ConcurrentHashMap.newKeySet();

    private volatile Version current;
    private String scheme;
    private long nextFileNumber = 2;
    private volatile long lastSequence;
    private long logNumber;
    private long manifestNumber = -1;
    private LogWriter manifest;
    /** Bytes appended to this store's manifests since open (checkpoints' copies not included). */
    private final LongAdder manifestBytes = new LongAdder();
    /**
     * Set when a manifest append or sync failed: the file may end in a record whose fate is unknown,
     * so nothing more is appended to it; the next edit first starts a new manifest.
     */
    private boolean manifestBroken;

    /**
     * A manifest append or sync failed. The edit was not installed, but it may still be durable and
     * seen by recovery, so the tables it adds must not be deleted by the running engine.
     */
    public static final class ManifestWriteException extends IOException {
        ManifestWriteException(String message, IOException cause) {
            super(message, cause);
        }
    }

    /**
     * @param onUnreferenced called (on the releasing thread) when a version that is no longer current
     *     loses its last reference, so its unique files may be deleted
     */
    /** Bytes written to manifests since open: snapshots at each new manifest and every edit (write amplification). */
    public long manifestBytesWritten() {
        return manifestBytes.sum();
    }

    public VersionSet(Path dir, FileSystem fs, int numLevels, SchemeState schemeState, Runnable onUnreferenced) {
        this.dir = dir;
        this.fs = fs;
        this.numLevels = numLevels;
        this.schemeState = schemeState;
        this.onUnreferenced = v -> {
            live.remove(v);
            onUnreferenced.run();
        };
        this.current = new Version(Version.emptyLevels(numLevels), new LongLongHashMap(), this.onUnreferenced);
        live.add(current);
    }

    public boolean exists() {
        return fs.exists(dir.resolve(FileNames.CURRENT));
    }

    /** Initializes a new, empty store recorded as using {@code schemeName}. */
    public synchronized void create(String schemeName) throws IOException {
        scheme = schemeName;
        nextFileNumber = 2;
        logNumber = 0;
        lastSequence = 0;
        writeNewManifest();
    }

    /**
     * Rebuilds the current version from CURRENT and the manifest it names, writing nothing: an open that
     * this or a later check refuses leaves the store as it was. {@link #startNewManifest} then records
     * the recovered state in a new manifest.
     *
     * @throws IllegalArgumentException if the store was created with a scheme other than
     *     {@code expectedScheme} (checked before any of the scheme's records is read), or if the
     *     recorded state does not fit the options it is opened with
     * @throws CorruptionException naming the file and offset if the manifest or CURRENT is damaged; only
     *     an incomplete last record (a torn write, never acknowledged) is cut and logged
     */
    public synchronized void recover(String expectedScheme) throws IOException {
        Path currentPath = dir.resolve(FileNames.CURRENT);
        String manifestName = readCurrent(currentPath);
        Path manifestPath = dir.resolve(manifestName);
        if (!fs.exists(manifestPath)) {
            throw new CorruptionException(currentPath, FileHeader.LENGTH, "names " + manifestName + ", which does not exist");
        }
        LogReader reader = new LogReader(fs.readAll(manifestPath), manifestPath, FileHeader.KIND_MANIFEST);
        Builder builder = new Builder(current);
        boolean haveLog = false;
        boolean haveNext = false;
        boolean haveSeq = false;
        byte[] record;
        while ((record = reader.next()) != null) {
            long offset = reader.lastRecordOffset();
            VersionEdit e = VersionEdit.decode(record, manifestPath, offset);
            if (e.scheme() != null) {
                if (!e.scheme().equals(expectedScheme)) {
                    throw new IllegalArgumentException("store " + dir + " was created with compaction scheme "
                            + e.scheme() + " and cannot be opened with " + expectedScheme + "; open it with compaction("
                            + e.scheme() + ")");
                }
                scheme = e.scheme();
            } else if (scheme == null && !e.schemeRecords().isEmpty()) {
                throw new CorruptionException(manifestPath, offset, "scheme records before the scheme name");
            }
            if (e.logNumber() >= 0) {
                logNumber = e.logNumber();
                haveLog = true;
            }
            if (e.nextFileNumber() >= 0) {
                nextFileNumber = e.nextFileNumber();
                haveNext = true;
            }
            if (e.lastSequence() >= 0) {
                lastSequence = e.lastSequence();
                haveSeq = true;
            }
            for (byte[] r : e.schemeRecords()) {
                try {
                    schemeState.apply(r);
                } catch (IllegalStateException ex) {
                    throw new CorruptionException(manifestPath, offset, "bad scheme record: " + ex.getMessage(), ex);
                }
            }
            builder.apply(e, manifestPath, offset);
        }
        if (scheme == null || !haveLog || !haveNext || !haveSeq) {
            throw new CorruptionException(manifestPath, reader.validLength(),
                    "manifest lacks " + (scheme == null ? "the scheme name" : !haveLog ? "the log number"
                            : !haveNext ? "the next file number" : "the last sequence"));
        }
        for (List<FileMeta> level : builder.levels) {
            for (FileMeta f : level) {
                nextFileNumber = Math.max(nextFileNumber, f.number + 1);
            }
        }
        try {
            installLocked(builder.build());
        } catch (IllegalStateException ex) {
            // The scheme's index found its records and the table placements disagree (e.g. an FLSM table
            // outside the guard it is recorded in): the manifest as a whole describes no valid state.
            throw new CorruptionException(manifestPath, reader.validLength(),
                    "scheme state disagrees with the tables: " + ex.getMessage(), ex);
        }
        if (reader.tornTailOffset() >= 0) {
            LOG.warn("{}: cut an incomplete last record at offset {} (a manifest write a crash interrupted; the"
                    + " edit it held never took effect)", manifestPath, reader.tornTailOffset());
        }
        manifestNumber = FileNames.manifestNumber(manifestName);
    }

    /** After {@link #recover}: writes the recovered state to a new manifest and points CURRENT at it. */
    public synchronized void startNewManifest() throws IOException {
        writeNewManifest();
    }

    private String readCurrent(Path currentPath) throws IOException {
        return readCurrent(fs, currentPath);
    }

    /**
     * The manifest file name that the CURRENT file at {@code currentPath} names (tools read a store's
     * manifest without a version set).
     *
     * @throws CorruptionException naming the file and offset if CURRENT is damaged
     */
    public static String readCurrent(FileSystem fs, Path currentPath) throws IOException {
        byte[] b = fs.readAll(currentPath);
        FileHeader.check(b, 0, b.length, currentPath, FileHeader.KIND_CURRENT, CURRENT_VERSION, CURRENT_VERSION);
        int off = FileHeader.LENGTH;
        if (b.length < off + 6) {
            throw new CorruptionException(currentPath, off, "truncated");
        }
        int len = Coding.getShort(b, off);
        if (b.length != off + 2 + len + 4) {
            throw new CorruptionException(currentPath, off, "length " + len + " does not match the file size " + b.length);
        }
        int crc = Coding.getInt(b, off + 2 + len);
        if (Checksums.unmask(crc) != Checksums.crc32c(b, off + 2, len)) {
            throw new CorruptionException(currentPath, off + 2 + len, "checksum mismatch");
        }
        return new String(b, off + 2, len, StandardCharsets.UTF_8);
    }

    /**
     * Writes a manifest holding the whole current state, points CURRENT at it and deletes the old one.
     * A failure before CURRENT is renamed leaves the old manifest in charge; after the rename the new
     * one is adopted, and if the directory sync then fails the old file is kept (a crash may bring the
     * old CURRENT back) and the manifest is marked broken so the next edit rolls again.
     */
    private void writeNewManifest() throws IOException {
        long number = nextFileNumber++;
        Path path = FileNames.manifest(dir, number);
        Path tmp = dir.resolve(FileNames.CURRENT + FileNames.TEMP_SUFFIX);
        WritableFile file = null;
        LogWriter w = null;
        try {
            file = fs.createLog(path);
            w = new LogWriter(file, FileHeader.KIND_MANIFEST);
            byte[] rec = snapshotEdit().encode();
            w.addRecord(rec, 0, rec.length);
            w.sync();
            fs.syncDirectory(dir);
            writeCurrentTemp(tmp, path.getFileName().toString());
            fs.rename(tmp, dir.resolve(FileNames.CURRENT));
        } catch (IOException | RuntimeException e) {
            // The file may not exist (create failed) or have no writer yet (its header append failed).
            if (w != null) {
                closeQuietly(w);
            } else if (file != null) {
                try {
                    file.close();
                } catch (IOException ignored) {
                    // abandoned and deleted below
                }
            }
            if (file != null) {
                deleteQuietly(path);
            }
            throw e;
        }
        manifestBytes.add(w.size());
        LogWriter old = manifest;
        long oldNumber = manifestNumber;
        manifest = w;
        manifestNumber = number;
        manifestBroken = false;
        if (old != null) {
            closeQuietly(old);
        }
        try {
            fs.syncDirectory(dir);
        } catch (IOException e) {
            manifestBroken = true;
            throw e;
        }
        if (oldNumber >= 0) {
            deleteQuietly(FileNames.manifest(dir, oldNumber));
        }
    }

    /** The whole current state as one edit: what a new manifest starts with. */
    private VersionEdit snapshotEdit() {
        VersionEdit snap = new VersionEdit().scheme(scheme).logNumber(logNumber).nextFileNumber(nextFileNumber)
                .lastSequence(lastSequence);
        Version v = current;
        for (int level = 0; level < v.numLevels(); level++) {
            for (FileMeta f : v.files(level)) {
                snap.addFile(level, v.placement(f.number), f);
            }
        }
        for (byte[] r : schemeState.snapshot()) {
            snap.schemeRecord(r);
        }
        return snap;
    }

    /** What {@link #writeCheckpoint} captured: the version it described (acquired) and the log number. */
    public record Checkpoint(Version version, long logNumber) {}

    /**
     * Writes the current state as the manifest of a new store in {@code target} (a checkpoint): a manifest
     * holding one snapshot edit and CURRENT naming it, synced. The caller copies the tables of the returned
     * version and the logs it needs, then releases the version.
     */
    public synchronized Checkpoint writeCheckpoint(Path target) throws IOException {
        Path path = FileNames.manifest(target, manifestNumber);
        try (LogWriter w = new LogWriter(fs.createLog(path), FileHeader.KIND_MANIFEST)) {
            byte[] rec = snapshotEdit().encode();
            w.addRecord(rec, 0, rec.length);
            w.sync();
        }
        Path tmp = target.resolve(FileNames.CURRENT + FileNames.TEMP_SUFFIX);
        writeCurrentTemp(tmp, path.getFileName().toString());
        fs.rename(tmp, target.resolve(FileNames.CURRENT));
        fs.syncDirectory(target);
        return new Checkpoint(acquireCurrent(), logNumber);
    }

    private void writeCurrentTemp(Path tmp, String manifestName) throws IOException {
        byte[] name = manifestName.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[FileHeader.LENGTH + 2 + name.length + 4];
        System.arraycopy(FileHeader.encode(FileHeader.KIND_CURRENT, CURRENT_VERSION), 0, b, 0, FileHeader.LENGTH);
        Coding.putShort(b, FileHeader.LENGTH, name.length);
        System.arraycopy(name, 0, b, FileHeader.LENGTH + 2, name.length);
        Coding.putInt(b, FileHeader.LENGTH + 2 + name.length, Checksums.maskedCrc32c(name, 0, name.length));
        try (WritableFile f = fs.createLog(tmp)) {
            f.append(b, 0, b.length);
            f.sync();
        }
    }

    private void deleteQuietly(Path path) {
        try {
            fs.delete(path);
        } catch (IOException ignored) {
            // an orphan; the sweep at the next open removes it
        }
    }

    /**
     * Records {@code edit} durably and installs the version it produces. Fills in the next file number
     * and, when the edit does not set them, the current log number and last sequence.
     */
    public synchronized void logAndApply(VersionEdit edit) throws IOException {
        if (manifestBroken) {
            writeNewManifest();
        }
        if (edit.logNumber() < 0) {
            edit.logNumber(logNumber);
        }
        if (edit.lastSequence() < 0) {
            edit.lastSequence(lastSequence);
        }
        edit.nextFileNumber(nextFileNumber);
        schemeState.prepare(current, edit);
        Builder builder = new Builder(current);
        builder.apply(edit, null, 0);
        Version v = builder.build();
        byte[] rec = edit.encode();
        try {
            long before = manifest.size();
            manifest.addRecord(rec, 0, rec.length);
            manifestBytes.add(manifest.size() - before);
            manifest.sync();
        } catch (IOException e) {
            manifestBroken = true;
            throw new ManifestWriteException("writing the manifest failed: " + e.getMessage(), e);
        }
        for (byte[] r : edit.schemeRecords()) {
            schemeState.apply(r);
        }
        logNumber = edit.logNumber();
        installLocked(v);
        if (manifest.size() > MANIFEST_ROLL_BYTES) {
            try {
                writeNewManifest();
            } catch (IOException e) {
                // The edit is durable in the current manifest; rolling is retried after the next edit.
                LOG.warn("could not start a new manifest; continuing with the current one", e);
            }
        }
    }

    private void installLocked(Version v) {
        v.schemeIndex(schemeState.index(v));
        live.add(v);
        Version old = current;
        current = v;
        old.release();
    }

    /** The current version, retained; the caller must {@link Version#release()} it. */
    public Version acquireCurrent() {
        while (true) {
            Version v = current;
            if (v.tryRetain()) {
                return v;
            }
        }
    }

    /**
     * The current version, pinned on the calling thread's {@code stripe} ({@link StripedPins#stripe()}) rather
     * than retained: for a point read that ends on this thread, which must {@link Version#unpin} it there. A
     * version pinned while still current is seen by the check that would free it once replaced; one pinned
     * after it was replaced is unpinned here, before anything reads through it.
     */
    public Version pinCurrent(int stripe) {
        while (true) {
            Version v = current;
            v.pin(stripe);
            if (current == v) {
                return v;
            }
            v.unpin(stripe);
        }
    }

    /** The current version without taking a reference; valid only while the caller holds the engine lock. */
    public Version current() {
        return current;
    }

    /**
     * Numbers of every table in a live version (current or still referenced). Synchronized with
     * installs: versions join the live set only under this monitor, so an iteration cannot miss one
     * that was installed (and then referenced by a reader) while it ran.
     */
    public synchronized LongHashSet liveTables() {
        // Unboxed: an LSM_TRIE store holds thousands of tables, and the sweep asks after every flush and
        // compaction; boxed sets made the sweep a tenth of such a store's CPU.
        LongHashSet out = new LongHashSet(current.totalFiles());
        for (Version v : live) {
            addTables(v, out);
        }
        addTables(current, out);
        return out;
    }

    private static void addTables(Version v, LongHashSet out) {
        for (int level = 0; level < v.numLevels(); level++) {
            for (FileMeta f : v.files(level)) {
                out.add(f.number);
            }
        }
    }

    public synchronized long newFileNumber() {
        return nextFileNumber++;
    }

    public synchronized void markFileNumberUsed(long n) {
        nextFileNumber = Math.max(nextFileNumber, n + 1);
    }

    public long lastSequence() {
        return lastSequence;
    }

    public void setLastSequence(long seq) {
        lastSequence = seq;
    }

    public synchronized long logNumber() {
        return logNumber;
    }

    public synchronized long manifestNumber() {
        return manifestNumber;
    }

    public String scheme() {
        return scheme;
    }

    public int numLevels() {
        return numLevels;
    }

    @Override
    public synchronized void close() throws IOException {
        if (manifest != null) {
            manifest.close();
            manifest = null;
        }
    }

    private static void closeQuietly(LogWriter w) {
        try {
            w.close();
        } catch (IOException ignored) {
            // the file is abandoned either way
        }
    }

    /**
     * Applies edits to a base version's file lists. A level no edit touches keeps the base's list itself
     * (sorted and immutable already): no copy and sort of every level per install, and a scheme's index
     * can tell by identity that the level did not change (FLSM reuses its guard layout).
     */
    private final class Builder {
        final List<List<FileMeta>> levels = new ArrayList<>();
        private final boolean[] touched = new boolean[numLevels];
        final LongLongHashMap placements;

        Builder(Version base) {
            for (int i = 0; i < numLevels; i++) {
                levels.add(base.files(i));
            }
            placements = base.placements().clone();
        }

        /** Level {@code i}'s list, copied on the first change. */
        private List<FileMeta> changing(int i) {
            if (!touched[i]) {
                touched[i] = true;
                levels.set(i, new ArrayList<>(levels.get(i)));
            }
            return levels.get(i);
        }

        void apply(VersionEdit e, Path file, long offset) {
            for (VersionEdit.DeletedFile d : e.deletedFiles()) {
                checkLevel(d.level(), file, offset);
                boolean removed = changing(d.level()).removeIf(f -> f.number == d.number());
                if (!removed && file != null) {
                    throw new CorruptionException(file, offset, "deletes table " + d.number() + " absent from level " + d.level());
                }
                if (!removed) {
                    throw new IllegalStateException("edit deletes table " + d.number() + " absent from level " + d.level());
                }
                placements.remove(d.number());
            }
            for (VersionEdit.NewFile n : e.newFiles()) {
                checkLevel(n.level(), file, offset);
                changing(n.level()).add(n.meta());
                if (n.placement() != 0) {
                    placements.put(n.meta().number, n.placement());
                } else {
                    placements.remove(n.meta().number);
                }
            }
        }

        private void checkLevel(int level, Path file, long offset) {
            if (level >= numLevels) {
                // A checksummed record naming a deeper level means the store was built with more levels.
                throw new IllegalArgumentException((file == null ? "edit" : file + " at offset " + offset)
                        + " places a table at level " + level + ", but the store is opened with numLevels "
                        + numLevels + "; open it with numLevels >= " + (level + 1));
            }
        }

        Version build() {
            List<List<FileMeta>> out = new ArrayList<>(numLevels);
            for (int i = 0; i < numLevels; i++) {
                List<FileMeta> l = levels.get(i);
                if (touched[i]) {
                    l.sort(schemeState.tableOrder(i));
                    l = List.copyOf(l);
                }
                out.add(l);
            }
            return new Version(out, placements, onUnreferenced);
        }
    }

}
