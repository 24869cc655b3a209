package io.bellows.bench.jmh;

import io.bellows.engine.TraceOptions;
import io.bellows.engine.internal.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What tracing adds to one engine call: recording a put (16-byte key, 100-byte value, length only
 * unless {@code values}) or a get in the trace writer, clock read included, blocks written to a real
 * file. The trace is started afresh every {@link #ROLL_RECORDS} records so a long run does not fill the disk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TraceWriterBenchmark {
    static final long ROLL_RECORDS = 4_000_000;

    @Param({"put", "get"})
    public String op;

    @Param({"false", "true"})
    public boolean values;

    private Path file;
    private TraceWriter trace;
    private byte[] key;
    private byte[] value;
    private long records;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        file = Files.createTempFile("bellows-jmh-trace-", ".trace");
        key = BenchKeys.key(42);
        value = BenchKeys.value(100, 1);
        trace = TraceWriter.start(file, TraceOptions.builder().values(values).build());
    }

    @Benchmark
    public void record() throws IOException {
        if ("put".equals(op)) {
            trace.put(System.nanoTime(), key, value);
        } else {
            trace.get(System.nanoTime(), key);
        }
        if (++records == ROLL_RECORDS) {
            records = 0;
            trace.close();
            trace = TraceWriter.start(file, TraceOptions.builder().values(values).build());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        trace.close();
        Files.deleteIfExists(file);
    }
}
