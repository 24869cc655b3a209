package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.metrics.EngineCounters;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Writes HTables into memory and opens them; finds keys whose home is a chosen bucket. */
final class HTableFixture {
    static final Path PATH = Path.of("/mem/000007.sst");

    final KeyHash hash;
    final int buckets;
    final EngineCounters counters = new EngineCounters();
    final FilterPageCache filterCache = new FilterPageCache(1 << 20);
    byte[] bytes;

    HTableFixture(long seed, int buckets) {
        this.hash = new KeyHash(seed);
        this.buckets = buckets;
    }

    /** Entries must be in internal-key order. */
    HTableProperties write(List<Entry> entries, long number, List<TableFilters> older) throws IOException {
        HTableWriter w = new HTableWriter(hash, buckets, 16);
        for (Entry e : entries) {
            w.add(e.key(), e.seq(), e.kind(), e.value(), hash.hi(e.key()), hash.lo(e.key()));
        }
        Mem file = new Mem();
        HTableProperties p = w.write(file, number, older);
        bytes = file.out.toByteArray();
        return p;
    }

    HTableReader open(long number) throws IOException {
        return HTableReader.open(new MemReadable(bytes), PATH, number, filterCache, counters);
    }

    /** {@code count} random keys of {@code length} bytes whose home bucket is {@code bucket}. */
    List<byte[]> keysHomedAt(int bucket, int count, int length, Random rnd) {
        List<byte[]> out = new ArrayList<>();
        while (out.size() < count) {
            byte[] k = new byte[length];
            rnd.nextBytes(k);
            if (KeyHash.bucket(hash.hi(k), buckets) == bucket) {
                out.add(k);
            }
        }
        return out;
    }

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

    static class MemReadable implements ReadableFile {
        private final byte[] data;

        MemReadable(byte[] data) {
            this.data = data;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            if (position + len > data.length) {
                throw new EOFException("read past the end");
            }
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
