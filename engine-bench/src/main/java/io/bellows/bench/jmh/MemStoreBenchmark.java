package io.bellows.bench.jmh;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreView;
import java.util.SplittableRandom;
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
 * MemStore insert and point get, once per {@link InMemoryCompaction} policy and {@link MemoryLayout}:
 * the parameters list no values, so JMH runs every constant of the enums and a new policy or layout
 * joins without an edit. Each insert
 * ends a write group ({@code endWrite}), as the engine's write leader does. Inserts go
 * to random keys of a MemStore made fresh each iteration; when the policy asks for a flush, the
 * snapshot is dropped as a finished flush would drop it. Gets probe a MemStore of {@link #entries}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MemStoreBenchmark {
    @Param
    public InMemoryCompaction policy;

    @Param
    public MemoryLayout layout;

    @Param("100000")
    public int entries;

    @Param("100")
    public int valueSize;

    private EngineOptions options;
    private BenchMemStores insertStores;
    private BenchMemStores readStores;
    private MemStore insertStore;
    private MemStore readStore;
    private final SplittableRandom random = new SplittableRandom(301);
    private final Lookup lookup = new Lookup();
    private byte[] value;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() {
        options = EngineOptions.builder().inMemoryCompaction(policy).memoryLayout(layout).memstoreSize(64L << 20)
                .build();
        value = BenchKeys.value(valueSize, 1);
        readStores = new BenchMemStores(options, () -> sequence);
        readStore = readStores.store;
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < entries; i++) {
            long k = r.nextLong(entries);
            readStore.add(BenchKeys.key(k), ++sequence, InternalKeys.KIND_PUT, value);
            readStore.endWrite();
        }
    }

    @Setup(Level.Iteration)
    public void freshInsertStore() {
        insertStores = new BenchMemStores(options, () -> sequence);
        insertStore = insertStores.store;
    }

    @TearDown(Level.Iteration)
    public void closeInsertStore() {
        insertStores.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        readStores.close();
    }

    @Benchmark
    public void insert() {
        MemStore m = insertStore;
        m.add(BenchKeys.key(random.nextLong()), ++sequence, InternalKeys.KIND_PUT, value);
        m.endWrite();
        if (m.shouldFlush() && !m.hasSnapshot()) {
            m.snapshot();
            m.clearSnapshot();
        }
    }

    @Benchmark
    public boolean get() {
        try (MemStoreView view = readStore.view()) {
            return view.get(BenchKeys.key(random.nextLong(entries)), InternalKeys.MAX_SEQUENCE, lookup);
        }
    }
}
