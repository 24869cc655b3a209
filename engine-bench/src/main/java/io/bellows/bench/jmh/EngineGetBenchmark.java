package io.bellows.bench.jmh;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.ReadOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point reads of a LEVELED store, from its tables (settled, every block in the block cache) or from its
 * MemStore (NONE policy, nothing flushed; on or off the heap): the CPU and allocation cost of a get once
 * I/O is out of the way (run with {@code -prof gc} for bytes per get). {@code getHit} returns a new value
 * array (the one allocation a hit needs), {@code getInto} copies into the caller's array and
 * {@code getIntoDirect} into a direct ByteBuffer, {@code getMiss}
 * looks for a key between two stored ones (its filter usually answers), {@code scan} reads a cursor's
 * entries (bytes per entry scanned). Keys are made before the
 * measurement, so the benchmark itself allocates nothing per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineGetBenchmark {
    static final int SCAN = 1000;

    @Param("200000")
    public int entries;

    /** Where the values are: {@code table} (flushed and compacted, blocks cached) or {@code memstore}. */
    @Param({"table", "memstore"})
    public String source;

    @Param({"ON_HEAP", "OFF_HEAP"})
    public MemoryLayout layout;

    private Path dir;
    private Engine db;
    private byte[][] keys;
    private byte[][] missing;
    private final byte[] dst = new byte[128];
    private final ByteBuffer direct = ByteBuffer.allocateDirect(128);
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("bellows-get-");
        db = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.LEVELED)
                .blockCacheSize(256L << 20).memstoreSize(256L << 20).memoryLayout(layout).build());
        byte[] value = BenchKeys.value(100, 1);
        keys = new byte[entries][];
        missing = new byte[entries][];
        for (int i = 0; i < entries; i++) {
            keys[i] = BenchKeys.key(2L * i);
            missing[i] = BenchKeys.key(2L * i + 1);
            db.put(keys[i], value);
        }
        if (source.equals("table")) {
            db.compactRange(null, null);
        }
        // Shuffle the probe order once (a fixed permutation), then warm every block into the cache.
        Random r = new Random(7);
        for (int i = entries - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            byte[] t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        for (byte[] k : keys) {
            db.get(k);
        }
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

    private int nextIndex() {
        int i = next;
        next = i + 1 == entries ? 0 : i + 1;
        return i;
    }

    @Benchmark
    public byte[] getHit() {
        return db.get(keys[nextIndex()]);
    }

    @Benchmark
    public int getInto() {
        return db.get(keys[nextIndex()], dst, 0, ReadOptions.defaults());
    }

    @Benchmark
    public int getIntoDirect() {
        return db.get(keys[nextIndex()], direct.clear(), ReadOptions.defaults());
    }

    @Benchmark
    public byte[] getMiss() {
        return db.get(missing[nextIndex()]);
    }

    /**
     * A scan of {@link #SCAN} entries from a random key through a new cursor, reading {@code key()} and
     * {@code value()} of each; measured per entry scanned, so the cursor's own objects are spread over
     * them. The arrays handed to the caller (a 16-byte key, a 100-byte value: 32 + 120 bytes) are the floor.
     */
    @Benchmark
    @OperationsPerInvocation(SCAN)
    public long scan() {
        long sum = 0;
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            c.seek(keys[nextIndex()]);
            for (int i = 0; i < SCAN; i++) {
                if (!c.isValid()) {
                    c.seekToFirst();
                }
                sum += c.key().length + c.value().length;
                c.next();
            }
        }
        return sum;
    }
}
