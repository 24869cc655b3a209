package io.bellows.engine.internal.inspect;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a WAL file record by record through the engine's {@link LogReader} and {@link BatchCodec},
 * as recovery would, without applying anything: the records with their sequence ranges, where a torn
 * tail (an unacknowledged write a crash cut) begins, and the first damage, which ends the scan.
 */
public final class LogScan {
    /** One WAL record: a group of batches with consecutive sequences. */
    public record Record(long offset, long firstSequence, int ops, int bytes) {}

    /**
     * @param tornTailOffset where an incomplete last record begins, or -1
     * @param corruption the damage that ended the scan (file and offset), or null
     */
    public record Result(Path path, long length, List<Record> records, long tornTailOffset,
            CorruptionException corruption) {
        public boolean clean() {
            return corruption == null;
        }

        public long operations() {
            long n = 0;
            for (Record r : records) {
                n += r.ops();
            }
            return n;
        }
    }

    private LogScan() {}

    /** Scans {@code contents} of the log at {@code path}, passing each operation to {@code ops} if not null. */
    public static Result scan(byte[] contents, Path path, BatchCodec.Visitor ops) {
        List<Record> records = new ArrayList<>();
        LogReader reader;
        try {
            reader = new LogReader(contents, path, FileHeader.KIND_WAL);
        } catch (CorruptionException e) {
            return new Result(path, contents.length, records, -1, e);
        }
        try {
            byte[] record;
            while ((record = reader.next()) != null) {
                long offset = reader.lastRecordOffset();
                if (ops != null) {
                    BatchCodec.decode(record, path, offset, ops);
                } else {
                    BatchCodec.validate(record, path, offset);
                }
                records.add(new Record(offset, BatchCodec.firstSequence(record), BatchCodec.count(record), record.length));
            }
        } catch (CorruptionException e) {
            return new Result(path, contents.length, records, -1, e);
        }
        return new Result(path, contents.length, records, reader.tornTailOffset(), null);
    }
}
