package io.bellows.engine.internal.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.key.InternalKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every operation of a log found by {@link LogPositions#scan} reads back, through {@link LogPositions#read},
 * as the operation written: small groups, groups of many operations, values spanning several 32 KiB blocks,
 * operations cut by chunk boundaries; and the scan stops at a torn tail.
 */
class LogPositionsTest {
    private static final Path LOG = Path.of("/db/000001.log");

    private record Written(long seq, int kind, byte[] key, byte[] value) {}

    @Test
    void everyOperationReadsBackAsWritten() throws Exception {
        long seed = TestSeeds.seed("LogPositionsTest");
        Random rnd = new Random(seed);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(LOG.getParent());
        List<Written> written = new ArrayList<>();
        long seq = 1;
        try (LogWriter w = new LogWriter(fs.createLog(LOG), FileHeader.KIND_WAL)) {
            for (int r = 0; r < 300; r++) {
                WriteBatch b = new WriteBatch();
                int ops = rnd.nextInt(10) == 0 ? 1 + rnd.nextInt(400) : 1;
                long first = seq;
                for (int i = 0; i < ops; i++) {
                    byte[] key = new byte[1 + rnd.nextInt(40)];
                    rnd.nextBytes(key);
                    if (rnd.nextInt(8) == 0) {
                        b.delete(key);
                        written.add(new Written(seq++, InternalKeys.KIND_DELETE, key, null));
                    } else {
                        byte[] value = new byte[rnd.nextInt(50) == 0 ? 40_000 + rnd.nextInt(100_000) : rnd.nextInt(300)];
                        rnd.nextBytes(value);
                        b.put(key, value);
                        written.add(new Written(seq++, InternalKeys.KIND_PUT, key, value));
                    }
                }
                byte[] rec = BatchCodec.encode(first, List.of(b));
                w.addRecord(rec, 0, rec.length);
            }
            w.sync();
        }
        ReadableFile f = fs.openLog(LOG);
        List<long[]> found = new ArrayList<>();
        long end = LogPositions.scan(f, LOG, (s, kind, chunk, off) -> found.add(new long[] {s, kind, chunk, off}));
        assertEquals(f.size(), end, "seed " + seed);
        assertEquals(written.size(), found.size(), "seed " + seed);
        LogPositions.Op op = new LogPositions.Op();
        for (int i = 0; i < found.size(); i++) {
            Written w = written.get(i);
            long[] p = found.get(i);
            assertEquals(w.seq(), p[0]);
            assertEquals(w.kind(), (int) p[1]);
            LogPositions.read(f, LOG, p[2], (int) p[3], op);
            assertEquals(w.kind(), op.kind, "seed " + seed + " op " + i);
            assertArrayEquals(w.key(), op.key, "seed " + seed + " op " + i);
            if (w.value() == null) {
                assertNull(op.value);
            } else {
                assertArrayEquals(w.value(), op.value, "seed " + seed + " op " + i);
            }
        }

        // A torn tail: the scan ends at the last complete record.
        byte[] data = fs.readAll(LOG);
        byte[] torn = Arrays.copyOf(data, data.length - 3);
        fs.overwrite(LOG, torn);
        ReadableFile t = fs.openLog(LOG);
        long tornEnd = LogPositions.scan(t, LOG, (s, kind, chunk, off) -> { });
        assertTrue(tornEnd < torn.length && tornEnd > FileHeader.LENGTH, "seed " + seed);
        // A position past the end of the file is corruption, not an exception of another kind.
        assertThrows(CorruptionException.class, () -> LogPositions.read(t, LOG, torn.length - 2, 0, op));
    }
}
