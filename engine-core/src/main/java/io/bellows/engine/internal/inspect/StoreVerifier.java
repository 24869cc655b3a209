package io.bellows.engine.internal.inspect;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableReader;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a closed store end to end, as LevelDB's paranoid checks and RocksDB's {@code ldb checkconsistency}
 * and {@code sst_dump --command=verify} do together: the manifest, the directory against the manifest's
 * view (a live file missing or of the wrong size), every block of every live table against its checksum
 * (by reading every entry, through the engine's readers), and every record of every live WAL. Files
 * the manifest no longer names are listed as extra: a crash leaves them and the next open deletes them,
 * so they are not damage.
 */
public final class StoreVerifier {
    /** A damaged or missing file, with the offset of the damage (0 when the whole file is concerned). */
    public record Problem(Path file, long offset, String message) {}

    /**
     * @param bytes bytes read from table and log files
     * @param notes what is worth knowing and is not damage (torn WAL tails, a cut manifest tail)
     */
    public record Report(Path dir, String scheme, int tables, int logs, long bytes, long nanos, List<Problem> problems,
            List<Path> extra, List<String> notes) {
        public boolean clean() {
            return problems.isEmpty();
        }

        public double megabytesPerSecond() {
            return nanos == 0 ? 0 : bytes / 1e6 / (nanos / 1e9);
        }
    }

    private final FileSystem fs;
    private final Path dir;
    private final List<Problem> problems = new ArrayList<>();
    private final List<Path> extra = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private long bytes;

    private StoreVerifier(FileSystem fs, Path dir) {
        this.fs = fs;
        this.dir = dir;
    }

    /** Verifies the closed store in {@code dir}; I/O errors other than damage propagate. */
    public static Report verify(FileSystem fs, Path dir) throws IOException {
        return new StoreVerifier(fs, dir).run();
    }

    private Report run() throws IOException {
        long start = System.nanoTime();
        ManifestView m;
        try {
            m = ManifestView.read(fs, dir);
        } catch (CorruptionException e) {
            problems.add(new Problem(e.file(), e.offset(), e.getMessage()));
            return new Report(dir, null, 0, 0, 0, System.nanoTime() - start, problems, extra, notes);
        }
        if (m.tornTailOffset() >= 0) {
            notes.add(m.manifest() + ": an incomplete last record at offset " + m.tornTailOffset()
                    + " (a manifest write a crash interrupted; the edit never took effect)");
        }
        StoreTables opener = StoreTables.of(fs, m.scheme());
        int tables = 0;
        Set<Long> tableLogs = new TreeSet<>();
        for (ManifestView.LiveTable t : m.tables().values()) {
            if (checkTable(opener, t.meta(), tableLogs)) {
                tables++;
            }
        }
        List<String> names = new ArrayList<>(fs.list(dir));
        Collections.sort(names);
        List<Long> logs = new ArrayList<>();
        for (String name : names) {
            long table = FileNames.number(name, FileNames.TABLE_SUFFIX);
            long log = FileNames.number(name, FileNames.LOG_SUFFIX);
            if (log >= 0 && (log >= m.logNumber() || tableLogs.contains(log))) {
                logs.add(log);
            } else if (!(table >= 0 && m.tables().containsKey(table)) && !name.equals(FileNames.CURRENT)
                    && !name.equals(FileNames.LOCK) && !dir.resolve(name).equals(m.manifest())) {
                extra.add(dir.resolve(name));
            }
        }
        for (long n : tableLogs) {
            if (!logs.contains(n)) {
                problems.add(new Problem(FileNames.log(dir, n), 0, "missing: a live CL-table reads its records"));
            }
        }
        for (long n : logs) {
            Path path = FileNames.log(dir, n);
            byte[] contents = fs.readAll(path);
            bytes += contents.length;
            LogScan.Result r = LogScan.scan(contents, path, null);
            if (r.corruption() != null) {
                problems.add(new Problem(path, r.corruption().offset(), r.corruption().getMessage()));
            } else if (r.tornTailOffset() >= 0) {
                notes.add(path + ": an incomplete last record at offset " + r.tornTailOffset()
                        + " (a write a crash interrupted, never acknowledged as synced)");
            }
        }
        return new Report(dir, m.scheme(), tables, logs.size(), bytes, System.nanoTime() - start, problems, extra, notes);
    }

    /** Reads every entry of a live table; true if it was read whole and agrees with the manifest. */
    private boolean checkTable(StoreTables opener, FileMeta meta, Set<Long> tableLogs) throws IOException {
        Path path = FileNames.table(dir, meta.number);
        if (!fs.exists(path)) {
            problems.add(new Problem(path, 0, "missing: the manifest names it as a live table"));
            return false;
        }
        long size = fs.size(path);
        if (size != meta.fileSize) {
            problems.add(new Problem(path, Math.min(size, meta.fileSize), "is " + size + " bytes, the manifest says "
                    + meta.fileSize));
            return false;
        }
        try (OpenTable t = opener.open(path, meta.number); InternalIterator it = t.iterator(false)) {
            // Only SSTables keep entries in internal-key order; other formats (hash tables) are read whole.
            for (long log : t.logs()) {
                tableLogs.add(log);
            }
            boolean ordered = t instanceof TableReader;
            byte[] prevKey = null;
            long prevSeq = 0;
            long entries = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (ordered && prevKey != null && InternalKeys.compare(prevKey, prevSeq, it.key(), it.sequence()) >= 0) {
                    problems.add(new Problem(path, 0, "entry " + entries + " is out of order"));
                    return false;
                }
                prevKey = it.key();
                prevSeq = it.sequence();
                entries++;
            }
            if (entries != meta.entries) {
                problems.add(new Problem(path, 0, "holds " + entries + " entries, the manifest says " + meta.entries));
                return false;
            }
        } catch (CorruptionException e) {
            problems.add(new Problem(e.file() != null ? e.file() : path, e.offset(), e.getMessage()));
            return false;
        }
        bytes += size;
        return true;
    }
}
