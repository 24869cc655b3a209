package io.bellows.bench.jmh;

import io.bellows.engine.internal.table.BlockDecoding;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding a 4 KiB data block of 16-byte keys and 100-byte values (about 35 entries): parsing its
 * restart array and decoding every entry, as a scan does, or binary-searching the restarts and
 * decoding forward to one key, as a point lookup does. Through {@link BlockDecoding}, the table
 * package's public entry point for this suite.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlockDecodeBenchmark {
    @Param("16")
    public int restartInterval;

    @Param("100")
    public int valueSize;

    private BlockDecoding block;
    private byte[][] keys;
    private final SplittableRandom random = new SplittableRandom(301);

    @Setup
    public void setUp() {
        int count = Math.max(1, 4096 / (BenchKeys.KEY_SIZE + valueSize + 8));
        keys = BenchKeys.ascending(count);
        block = BlockDecoding.build(keys, BenchKeys.value(valueSize, 1), restartInterval);
    }

    @Benchmark
    public long decodeAll() {
        return block.decodeAll();
    }

    @Benchmark
    public boolean seek() {
        return block.seek(keys[random.nextInt(keys.length)]);
    }
}
