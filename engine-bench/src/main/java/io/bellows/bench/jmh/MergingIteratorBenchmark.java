package io.bellows.bench.jmh;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStoreView;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The merging iterator over {@link #sources} sorted sources whose keys interleave (key k lives in
 * source k mod sources), as a cursor merges the MemStore with overlapping L0 tables: a seek to a
 * random key followed by {@link #nexts} steps, the shape of db_bench's seekrandom.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MergingIteratorBenchmark {
    @Param({"2", "8"})
    public int sources;

    @Param("100000")
    public int entries;

    @Param("10")
    public int nexts;

    private final List<BenchMemStores> stores = new ArrayList<>();
    private final List<MemStoreView> views = new ArrayList<>();
    private MergingIterator merged;
    private final SplittableRandom random = new SplittableRandom(301);

    @Setup
    public void setUp() {
        EngineOptions options = EngineOptions.defaults();
        byte[] value = BenchKeys.value(100, 1);
        for (int s = 0; s < sources; s++) {
            stores.add(new BenchMemStores(options, () -> Long.MAX_VALUE));
        }
        for (int k = 0; k < entries; k++) {
            stores.get(k % sources).store.add(BenchKeys.key(k), k + 1, InternalKeys.KIND_PUT, value);
        }
        List<InternalIterator> children = new ArrayList<>();
        for (BenchMemStores m : stores) {
            MemStoreView view = m.store.view();
            views.add(view);
            children.addAll(view.iterators());
        }
        merged = new MergingIterator(children);
    }

    @TearDown
    public void tearDown() {
        merged.close();
        views.forEach(MemStoreView::close);
        stores.forEach(BenchMemStores::close);
    }

    @Benchmark
    public long seekAndNext() {
        merged.seek(BenchKeys.key(random.nextInt(entries)), InternalKeys.MAX_SEQUENCE);
        long sum = 0;
        for (int i = 0; i < nexts && merged.isValid(); i++) {
            sum += merged.sequence();
            merged.next();
        }
        return sum;
    }
}
