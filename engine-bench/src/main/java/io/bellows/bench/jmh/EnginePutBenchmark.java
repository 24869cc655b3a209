package io.bellows.bench.jmh;

import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.WriteOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * One {@code Engine.put} of a 16-byte random key and a 100-byte value through the whole write path
 * (write queue, WAL append handed to the OS, MemStore insert), for the bytes a put allocates
 * ({@code -prof gc}: {@code gc.alloc.rate.norm}). The key array is the benchmark's own, refilled in
 * place, so what is counted is the engine's. Each iteration opens a fresh store whose MemStore
 * (1 GiB) no iteration fills, so no flush or compaction allocates during the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EnginePutBenchmark {
    @Param
    public MemoryLayout layout;

    @Param({"ASYNC"})
    public Durability durability;

    private Path dir;
    private Engine engine;
    private WriteOptions writeOptions;
    private final SplittableRandom random = new SplittableRandom(17);
    private final byte[] key = new byte[BenchKeys.KEY_SIZE];
    private byte[] value;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        dir = Files.createTempDirectory("bellows-jmh-put-");
        engine = Engine.open(dir, EngineOptions.builder().memoryLayout(layout).memstoreSize(1L << 30)
                .offHeapLimit(3L << 30).build());
        writeOptions = WriteOptions.of(durability);
        value = BenchKeys.value(100, 1);
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        engine.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public void put() {
        long n = random.nextLong();
        for (int i = 0; i < 8; i++) {
            key[BenchKeys.KEY_SIZE - 1 - i] = (byte) (n >>> (8 * i));
        }
        engine.put(key, value, writeOptions);
    }
}
