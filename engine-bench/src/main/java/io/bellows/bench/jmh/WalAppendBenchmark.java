package io.bellows.bench.jmh;

import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Appending one put's WAL record (a one-entry batch of a 16-byte key and 100-byte value, encoded as
 * the engine encodes it) through the log writer to a real file. {@code mode}: {@code buffered} only
 * appends (the writer's buffer absorbs it); {@code flush} also hands it to the OS, which is what an
 * ASYNC write costs; {@code sync} also forces it to the device, a SYNC write without group commit.
 * The file is replaced every {@link #ROLL_BYTES} so a long run does not fill the disk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WalAppendBenchmark {
    static final long ROLL_BYTES = 64L << 20;

    @Param({"buffered", "flush", "sync"})
    public String mode;

    private Path dir;
    private FileSystem fs;
    private LogWriter log;
    private byte[] record;
    private int files;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("bellows-jmh-wal-");
        fs = DefaultFileSystem.forDirectory(dir, false);
        WriteBatch batch = new WriteBatch();
        batch.put(BenchKeys.key(42), BenchKeys.value(100, 1));
        record = BatchCodec.encode(1, List.of(batch));
        roll();
    }

    private void roll() throws IOException {
        if (log != null) {
            log.close();
            fs.delete(dir.resolve("wal-" + files + ".log"));
        }
        files++;
        log = new LogWriter(fs.createLog(dir.resolve("wal-" + files + ".log")), FileHeader.KIND_WAL);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        log.close();
        fs.delete(dir.resolve("wal-" + files + ".log"));
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public void append() throws IOException {
        log.addRecord(record, 0, record.length);
        if (!"buffered".equals(mode)) {
            log.flush();
        }
        if ("sync".equals(mode)) {
            log.sync();
        }
        if (log.size() >= ROLL_BYTES) {
            roll();
        }
    }
}
