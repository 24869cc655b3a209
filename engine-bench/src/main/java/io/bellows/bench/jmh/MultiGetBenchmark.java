package io.bellows.bench.jmh;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
 * A batch of point reads, as {@code multiGet} and as a loop of {@code get}s, on a settled LEVELED store
 * of 16-byte keys and 100-byte values. The batch's keys are random within a window of the key space
 * ({@code spread} keys wide): a dense window lets the batch share blocks, a wide one does not. Reads
 * do not fill the block cache ({@code fillCache(false)}), so shared blocks are what multiGet saves.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MultiGetBenchmark {
    @Param("500000")
    public int entries;

    @Param("100")
    public int batch;

    @Param({"1000", "500000"})
    public int spread;

    private Path dir;
    private Engine db;
    private final SplittableRandom random = new SplittableRandom(7);
    private final ReadOptions uncached = ReadOptions.defaults().fillCache(false);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("bellows-multiget-");
        db = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.LEVELED).build());
        byte[] value = BenchKeys.value(100, 1);
        for (int i = 0; i < entries; i++) {
            db.put(BenchKeys.key(i), value);
        }
        db.compactRange(null, null);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        db.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private List<byte[]> keys() {
        int base = random.nextInt(entries - spread + 1);
        List<byte[]> keys = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            keys.add(BenchKeys.key(base + random.nextInt(spread)));
        }
        return keys;
    }

    @Benchmark
    public List<byte[]> multiGet() {
        return db.multiGet(keys(), uncached);
    }

    @Benchmark
    public List<byte[]> loopOfGets() {
        List<byte[]> keys = keys();
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            out.add(db.get(k, uncached));
        }
        return out;
    }
}
