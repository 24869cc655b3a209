package io.bellows.bench.jmh;

import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
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
 * The SSTable block codecs (aircompressor's pure-Java LZ4 and Zstandard) on 4 KiB blocks shaped like
 * Bellows' data blocks: {@code ycsb} is 16-byte keys with values of YCSB's field format (ten
 * "fieldN=" fields of random printable characters, as YCSB's RandomByteIterator makes them);
 * {@code random} is 16-byte keys with 100-byte random values (bellows-bench's values). The setup prints
 * each codec's ratio (stored / raw) once; the benchmarks give the time per block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlockCompressionBenchmark {
    @Param({"LZ4", "ZSTD"})
    public String codec;

    @Param({"ycsb", "random"})
    public String data;

    private Compressor compressor;
    private Decompressor decompressor;
    private byte[] block;
    private byte[] compressed;
    private int compressedLength;
    private byte[] out;

    @Setup
    public void setUp() {
        compressor = codec.equals("LZ4") ? new Lz4Compressor() : new ZstdCompressor();
        decompressor = codec.equals("LZ4") ? new Lz4Decompressor() : new ZstdDecompressor();
        block = block(data, new SplittableRandom(11));
        compressed = new byte[compressor.maxCompressedLength(block.length)];
        compressedLength = compressor.compress(block, 0, block.length, compressed, 0, compressed.length);
        out = new byte[block.length];
        System.out.printf("%n%s on %s blocks: %d -> %d bytes (ratio %.3f)%n", codec, data, block.length, compressedLength,
                (double) compressedLength / block.length);
    }

    /** About 4 KiB of entries: a key, then a value, repeated. */
    static byte[] block(String data, SplittableRandom r) {
        byte[] b = new byte[4096];
        int pos = 0;
        long k = 0;
        while (pos < b.length) {
            byte[] key = BenchKeys.key(k++);
            System.arraycopy(key, 0, b, pos, Math.min(key.length, b.length - pos));
            pos += key.length;
            int valueLength = data.equals("ycsb") ? 1000 : 100;
            for (int i = 0; i < valueLength && pos < b.length; i++, pos++) {
                if (data.equals("ycsb")) {
                    // "field0=" ... then printable characters, as YCSB's RandomByteIterator: ' ' + r % 95.
                    b[pos] = i % 100 < 7 ? (byte) "field0=".charAt(i % 100) : (byte) (32 + r.nextInt(95));
                } else {
                    b[pos] = (byte) r.nextInt();
                }
            }
        }
        return b;
    }

    @Benchmark
    public int compress() {
        return compressor.compress(block, 0, block.length, compressed, 0, compressed.length);
    }

    @Benchmark
    public int decompress() {
        return decompressor.decompress(compressed, 0, compressedLength, out, 0, out.length);
    }
}
