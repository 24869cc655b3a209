package io.bellows.bench.jmh;

import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HTableWriter;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.HashOrderMerge;
import io.bellows.engine.internal.table.htable.KeyHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The read-and-merge half of an LSM_TRIE compaction: {@link #tables} full HTables of a pile (default
 * 8,192 buckets, the store's default, about 250,000 entries of 16-byte keys and 100-byte values each,
 * held in memory so the device is out of the figure) merged into one stream of entries with their hashes, as the sink needs
 * them. {@code sortedMerge} is the old path (each table read into entries and sorted in full by key, a
 * merging iterator over them, both hashes computed again per entry); {@code hashMerge} the new one
 * (the compaction's own HashOrderMerge of HashOrderCursors, hashes carried over), each key and value
 * copied out as the compaction did until it read views; {@code hashMergeViews} reads them as it does now,
 * in place (what it keeps the sink copies, which neither variant includes).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TrieMergeBenchmark {
    @Param("8")
    public int tables;

    @Param("8192")
    public int buckets;

    private final KeyHash hash = new KeyHash(42);
    private final List<HTableReader> readers = new ArrayList<>();

    @Setup
    public void setUp() throws IOException {
        SplittableRandom rnd = new SplittableRandom(17);
        FilterPageCache filters = new FilterPageCache(1 << 20);
        long seq = 1;
        for (int t = 0; t < tables; t++) {
            HTableWriter w = new HTableWriter(hash, buckets, 16);
            List<byte[]> keys = new ArrayList<>();
            byte[] value = BenchKeys.value(100, t);
            while (true) {
                byte[] k = new byte[16];
                rnd.nextBytes(k);
                if (w.wouldOverfill(122)) {
                    break;
                }
                keys.add(k);
                w.add(k, seq, InternalKeys.KIND_PUT, value, hash.hi(k), hash.lo(k));
            }
            Mem file = new Mem();
            w.write(file, t + 1, List.of());
            readers.add(HTableReader.open(new MemReadable(file.out.toByteArray()), Path.of("/mem/" + (t + 1) + ".sst"),
                    t + 1, filters, new EngineCounters()));
            seq += keys.size();
        }
    }

    @Benchmark
    public void sortedMerge(Blackhole bh) throws IOException {
        List<InternalIterator> sources = new ArrayList<>();
        for (HTableReader r : readers) {
            sources.add(r.iterator());
        }
        try (MergingIterator it = new MergingIterator(sources)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                bh.consume(hash.hi(k));
                bh.consume(hash.lo(k));
                bh.consume(it.value());
            }
        }
    }

    @Benchmark
    public void hashMerge(Blackhole bh) throws IOException {
        List<HashOrderCursor> cursors = new ArrayList<>(readers.size());
        for (HTableReader r : readers) {
            cursors.add(r.hashOrderCursor(null));
        }
        HashOrderMerge merge = new HashOrderMerge(cursors);
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            bh.consume(top.key());
            bh.consume(top.hi());
            bh.consume(top.lo());
            bh.consume(top.value());
        }
    }

    @Benchmark
    public void hashMergeViews(Blackhole bh) throws IOException {
        List<HashOrderCursor> cursors = new ArrayList<>(readers.size());
        for (HTableReader r : readers) {
            cursors.add(r.hashOrderCursor(null));
        }
        HashOrderMerge merge = new HashOrderMerge(cursors);
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            Slice key = top.keySlice();
            bh.consume(key.array()[key.offset()]);
            bh.consume(top.hi());
            bh.consume(top.lo());
            Slice value = top.valueSlice();
            bh.consume(value.length() == 0 ? 0 : value.array()[value.offset()]);
        }
    }

    /** An HTable file in memory. */
    static final class Mem implements WritableFile {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override
        public void append(byte[] b, int off, int len) {
            out.write(b, off, len);
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public long size() {
            return out.size();
        }

        @Override
        public void close() {}
    }

    /** Reads an in-memory HTable. */
    static final class MemReadable implements ReadableFile {
        private final byte[] data;

        MemReadable(byte[] data) {
            this.data = data;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            System.arraycopy(data, (int) position, dst, off, len);
        }

        @Override
        public long size() {
            return data.length;
        }

        @Override
        public void close() {}
    }
}
