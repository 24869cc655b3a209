package io.bellows.bench.jmh;

import io.bellows.engine.Compression;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.TableBuildBuffers;
import io.bellows.engine.internal.table.TableBuilder;
import io.bellows.engine.internal.table.TableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The loop of a leveled compaction, per entry compacted (issue 16 item 5): two SSTables of
 * {@link #ENTRIES} / 2 interleaved entries each (16-byte keys, 100-byte values, 4 KiB blocks, held in
 * memory so the device is out of the figure) merged by a {@link MergingIterator} into a new table
 * through a {@link TableBuilder}, whose bytes go nowhere. {@code mergeViews} passes the iterator's key
 * and value views and the builder buffers of the tables before (key-hash list, filter, block builders),
 * as a compaction's sink does for its second and later tables (the first grows them);
 * {@code mergeViewsFirstTable} the views and new buffers, as for a compaction's first table;
 * {@code mergeCopies} the arrays {@code key()} and {@code value()} copy out, and new buffers, as
 * compactions did before the slice contract. Run with {@code -prof gc}:
 * gc.alloc.rate.norm is bytes allocated per entry (the iterators, builder and block buffers of one merge
 * are spread over its entries).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CompactionMergeBenchmark {
    static final int ENTRIES = 40_000;
    private static final Path PATH = Path.of("/mem/000001.sst");
    private final List<TableReader> readers = new ArrayList<>();
    private final TableBuildBuffers buffers = new TableBuildBuffers();

    @Setup
    public void setUp() throws IOException {
        byte[] value = BenchKeys.value(100, 1);
        for (int t = 0; t < 2; t++) {
            TrieMergeBenchmark.Mem file = new TrieMergeBenchmark.Mem();
            TableBuilder b = new TableBuilder(file, PATH, 4096, 16, 10);
            for (int k = t; k < ENTRIES; k += 2) {
                b.add(BenchKeys.key(k), k + 1, InternalKeys.KIND_PUT, value);
            }
            b.finish();
            readers.add(TableReader.open(new TrieMergeBenchmark.MemReadable(file.out.toByteArray()), PATH, t + 1,
                    new BlockCache(0), new EngineCounters()));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long mergeViews() throws IOException {
        return mergeThroughViews(buffers);
    }

    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long mergeViewsFirstTable() throws IOException {
        return mergeThroughViews(new TableBuildBuffers());
    }

    private long mergeThroughViews(TableBuildBuffers reused) throws IOException {
        Discard out = new Discard();
        TableBuilder builder = new TableBuilder(out, PATH, 4096, 16, 10, Compression.NONE, reused);
        try (MergingIterator it = merged()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                builder.add(it.keySlice(), it.sequence(), it.kind(), it.valueSlice());
            }
        }
        builder.finish();
        return out.size;
    }

    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long mergeCopies() throws IOException {
        Discard out = new Discard();
        TableBuilder builder = new TableBuilder(out, PATH, 4096, 16, 10);
        try (MergingIterator it = merged()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                builder.add(it.key(), it.sequence(), it.kind(), it.value());
            }
        }
        builder.finish();
        return out.size;
    }

    private MergingIterator merged() {
        List<InternalIterator> its = new ArrayList<>(readers.size());
        for (TableReader r : readers) {
            its.add(r.iterator(false));
        }
        return new MergingIterator(its);
    }

    /** Counts the bytes a table would have, keeps none. */
    static final class Discard implements WritableFile {
        long size;

        @Override
        public void append(byte[] b, int off, int len) {
            size += len;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {}
    }
}
