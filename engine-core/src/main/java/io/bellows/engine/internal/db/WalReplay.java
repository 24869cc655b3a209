package io.bellows.engine.internal.db;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineStats;
import io.bellows.engine.WalRecoveryMode;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the WAL files recovery needs, applying a {@link WalRecoveryMode} to the damage it meets, and
 * hands every record to be replayed to a visitor. Recovery runs it twice over the same files: first
 * with no visitor, to find and report the damage and fail the open (ABSOLUTE_CONSISTENCY) before
 * anything is written; then to apply. Its decisions depend on the files' bytes only, so both runs
 * replay exactly the same records.
 */
final class WalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(WalReplay.class);
    private final Path dir;
    private final FileSystem fs;
    private final WalRecoveryMode mode;
    /** Logs the checking run found damaged or dropped whole, in order. */
    private final List<Long> damaged = new ArrayList<>();

    /** Receives one complete, well-formed record to replay. */
    interface RecordVisitor {
        void record(byte[] record, Path path, long offset) throws IOException;
    }

    WalReplay(Path dir, FileSystem fs, WalRecoveryMode mode) {
        this.dir = dir;
        this.fs = fs;
        this.mode = mode;
    }

    /**
     * Reads the logs {@code numbers} in order, passing each record to replay to {@code visitor} (none:
     * only check and report, logging what is dropped).
     *
     * @throws CorruptionException under ABSOLUTE_CONSISTENCY, naming the first damaged file and offset
     */
    EngineStats.Recovery run(List<Long> numbers, RecordVisitor visitor) throws IOException {
        boolean report = visitor == null;
        Tally t = new Tally();
        for (int i = 0; i < numbers.size(); i++) {
            Path path = FileNames.log(dir, numbers.get(i));
            byte[] contents = fs.readAll(path);
            t.files++;
            long regions = t.corruptRegions;
            boolean goOn = replayFile(contents, path, visitor, t);
            if (report && t.corruptRegions > regions) {
                damaged.add(numbers.get(i));
            }
            if (!goOn) {
                // POINT_IN_TIME stopped: nothing in a later log may be applied without what was dropped.
                for (int j = i + 1; j < numbers.size(); j++) {
                    Path later = FileNames.log(dir, numbers.get(j));
                    byte[] rest = report ? fs.readAll(later) : new byte[0];
                    t.files++;
                    t.bytesDropped += rest.length;
                    t.recordsDropped += report ? countReadable(rest, later) : 0;
                    if (report) {
                        damaged.add(numbers.get(j));
                    }
                }
                if (report) {
                    LOG.error("WAL recovery (POINT_IN_TIME) stopped at the corruption in {}: the store opens at the"
                            + " last write before it; {} readable records ({} bytes) after it, in that file and {}"
                            + " later WAL files, are dropped", path, t.recordsDropped, t.bytesDropped,
                            numbers.size() - 1 - i);
                }
                break;
            }
        }
        return new EngineStats.Recovery(t.files, t.replayed, t.tornTailBytes, t.corruptRegions, t.recordsDropped,
                t.bytesDropped);
    }

    /** The WAL files the checking run found damaged, or dropped whole after the damage (POINT_IN_TIME). */
    List<Long> damagedLogs() {
        return List.copyOf(damaged);
    }

    /** Replays one file; false if POINT_IN_TIME recovery must stop here. */
    private boolean replayFile(byte[] contents, Path path, RecordVisitor visitor, Tally t) throws IOException {
        boolean report = visitor == null;
        LogReader reader;
        try {
            reader = new LogReader(contents, path, FileHeader.KIND_WAL);
        } catch (CorruptionException e) {
            return corruptFile(e, contents.length, path, report, t);
        }
        while (true) {
            byte[] record;
            try {
                record = reader.next();
            } catch (CorruptionException e) {
                if (!corrupt(e, reader, report, t)) {
                    return false;
                }
                continue;
            }
            if (record == null) {
                break;
            }
            long offset = reader.lastRecordOffset();
            try {
                BatchCodec.validate(record, path, offset);
            } catch (CorruptionException e) {
                if (!corruptRecord(e, reader, contents.length, path, report, t)) {
                    return false;
                }
                continue;
            }
            t.replayed++;
            if (visitor != null) {
                visitor.record(record, path, offset);
            }
        }
        long torn = reader.tornTailOffset();
        if (torn >= 0) {
            if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
                throw new CorruptionException(path, torn, "incomplete last record (a write a crash interrupted);"
                        + " walRecoveryMode ABSOLUTE_CONSISTENCY refuses to open; POINT_IN_TIME would cut it");
            }
            t.tornTailBytes += contents.length - torn;
            if (report) {
                LOG.warn("{}: cut an incomplete last record at offset {} ({} bytes): a write a crash interrupted,"
                        + " never acknowledged as synced", path, torn, contents.length - torn);
            }
        }
        return true;
    }

    /** Damage inside the file; returns false when POINT_IN_TIME stops. */
    private boolean corrupt(CorruptionException e, LogReader reader, boolean report, Tally t) {
        if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
            throw e;
        }
        t.corruptRegions++;
        if (mode == WalRecoveryMode.POINT_IN_TIME) {
            long dropped = reader.fileLength() - reader.validLength();
            t.bytesDropped += dropped;
            if (report) {
                t.recordsDropped += countRest(reader);
                LOG.error("WAL corruption: {}; POINT_IN_TIME drops the {} bytes from offset {}", e.getMessage(),
                        dropped, reader.validLength());
            }
            return false;
        }
        long skipped = reader.skipCorruption();
        t.bytesDropped += skipped;
        if (report) {
            LOG.error("WAL corruption: {}; SKIP_ANY_CORRUPTED_RECORDS drops {} bytes and goes on", e.getMessage(),
                    skipped);
        }
        return true;
    }

    /** A complete record that does not parse; returns false when POINT_IN_TIME stops. */
    private boolean corruptRecord(CorruptionException e, LogReader reader, long fileLength, Path path, boolean report,
            Tally t) {
        if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
            throw e;
        }
        t.corruptRegions++;
        long recordBytes = reader.validLength() - reader.lastRecordOffset();
        if (mode == WalRecoveryMode.POINT_IN_TIME) {
            long dropped = fileLength - reader.lastRecordOffset();
            t.bytesDropped += dropped;
            t.recordsDropped++;
            if (report) {
                t.recordsDropped += countRest(reader);
                LOG.error("WAL corruption: {}; POINT_IN_TIME drops the {} bytes from offset {}", e.getMessage(),
                        dropped, e.offset());
            }
            return false;
        }
        t.bytesDropped += recordBytes;
        t.recordsDropped++;
        if (report) {
            LOG.error("WAL corruption: {}; SKIP_ANY_CORRUPTED_RECORDS drops the record ({} bytes) and goes on",
                    e.getMessage(), recordBytes);
        }
        return true;
    }

    /** A file whose header is damaged: none of it can be read. */
    private boolean corruptFile(CorruptionException e, long length, Path path, boolean report, Tally t) {
        if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
            throw e;
        }
        t.corruptRegions++;
        t.bytesDropped += length;
        if (report) {
            LOG.error("WAL corruption: {}; {} drops the whole file ({} bytes)", e.getMessage(), mode, length);
        }
        return mode != WalRecoveryMode.POINT_IN_TIME;
    }

    /** Readable, well-formed records left in {@code reader}, skipping damage: what stopping drops. */
    private static long countRest(LogReader reader) {
        long n = 0;
        while (true) {
            try {
                if (reader.next() == null) {
                    return n;
                }
                n++;
            } catch (CorruptionException e) {
                reader.skipCorruption();
            }
        }
    }

    private static long countReadable(byte[] contents, Path path) {
        try {
            return countRest(new LogReader(contents, path, FileHeader.KIND_WAL));
        } catch (CorruptionException e) {
            return 0;
        }
    }

    private static final class Tally {
        long files;
        long replayed;
        long tornTailBytes;
        long corruptRegions;
        long recordsDropped;
        long bytesDropped;
    }
}
