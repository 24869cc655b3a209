package io.bellows.bench.jmh;

import io.bellows.engine.internal.table.BloomFilter;
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
 * A table's bloom filter probed for keys it holds and for keys it does not (the case the filter
 * exists for: a miss answered without reading a block). The probe includes hashing the key.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BloomFilterBenchmark {
    @Param("100000")
    public int keys;

    @Param("10")
    public int bitsPerKey;

    private BloomFilter filter;
    private byte[][] present;
    private byte[][] absent;
    private final SplittableRandom random = new SplittableRandom(301);

    @Setup
    public void setUp() {
        present = new byte[keys][];
        absent = new byte[keys][];
        long[] hashes = new long[keys];
        for (int i = 0; i < keys; i++) {
            present[i] = BenchKeys.key(2L * i);
            absent[i] = BenchKeys.key(2L * i + 1);
            hashes[i] = BloomFilter.hash(present[i]);
        }
        byte[] encoded = BloomFilter.build(hashes, keys, bitsPerKey);
        filter = BloomFilter.decode(encoded, 0, encoded.length);
    }

    @Benchmark
    public boolean probePresent() {
        return filter.mayContain(present[random.nextInt(keys)]);
    }

    @Benchmark
    public boolean probeAbsent() {
        return filter.mayContain(absent[random.nextInt(keys)]);
    }
}
