package io.bellows.bench;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineStats;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory {@link Engine} over a concurrent sorted map, so the benchmark's own logic can be
 * tested while the real engine is being written. Cursors see the live map (weakly consistent), which
 * is all the benchmark needs; snapshots are not modelled.
 */
class ModelEngine implements Engine {
    final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    final AtomicLong puts = new AtomicLong();
    final AtomicLong deletes = new AtomicLong();
    final AtomicLong batches = new AtomicLong();
    final AtomicLong gets = new AtomicLong();
    final AtomicLong cursors = new AtomicLong();
    volatile boolean closed;

    @Override
    public void put(byte[] key, byte[] value, WriteOptions options) {
        puts.incrementAndGet();
        map.put(key.clone(), value.clone());
    }

    @Override
    public void delete(byte[] key, WriteOptions options) {
        deletes.incrementAndGet();
        map.remove(key);
    }

    @Override
    public void write(WriteBatch batch, WriteOptions options) {
        batches.incrementAndGet();
        batch.forEach(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                map.put(key, value);
            }

            @Override
            public void delete(byte[] key) {
                map.remove(key);
            }
        });
    }

    @Override
    public byte[] get(byte[] key, ReadOptions options) {
        gets.incrementAndGet();
        byte[] v = map.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public int get(byte[] key, byte[] dst, int off, ReadOptions options) {
        gets.incrementAndGet();
        byte[] v = map.get(key);
        if (v == null) {
            return -1;
        }
        System.arraycopy(v, 0, dst, off, Math.min(v.length, dst.length - off));
        return v.length;
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys, ReadOptions options) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            out.add(get(k, options));
        }
        return out;
    }

    @Override
    public Snapshot snapshot() {
        throw new UnsupportedOperationException("the model engine has no snapshots");
    }

    @Override
    public void checkpoint(Path target) {
        throw new UnsupportedOperationException("the model engine has no checkpoints");
    }

    @Override
    public void startTrace(Path file, TraceOptions options) {
        throw new UnsupportedOperationException("the model engine records no traces");
    }

    @Override
    public void endTrace() {}

    @Override
    public Cursor cursor(ReadOptions options) {
        cursors.incrementAndGet();
        return new ModelCursor();
    }

    @Override
    public void flush() {}

    @Override
    public void compactRange(byte[] from, byte[] to) {}

    @Override
    public EngineStats stats() {
        return new EngineStats(new EngineStats.Io(1000, 1100, 500, 0, 250, "model"),
                new EngineStats.Reads(gets.get(), gets.get(), 0, 0, 0, 0), new EngineStats.Background(0, 0, 0, 0, 0),
                BenchStats.memstore(0, 0, 0, 0, 0, 0),
                BenchStats.levels(new long[] {0, 3L << 20, 0}, new int[] {0, 2, 0}), 0);
    }

    @Override
    public MeterBinder metrics(String name) {
        return registry -> {};
    }

    @Override
    public void close() {
        closed = true;
    }

    private final class ModelCursor implements Cursor {
        private Map.Entry<byte[], byte[]> current;

        @Override
        public void seek(byte[] key) {
            current = map.ceilingEntry(key);
        }

        @Override
        public void seekForPrev(byte[] key) {
            current = map.floorEntry(key);
        }

        @Override
        public void seekToFirst() {
            current = map.firstEntry();
        }

        @Override
        public void seekToLast() {
            current = map.lastEntry();
        }

        @Override
        public boolean isValid() {
            return current != null;
        }

        @Override
        public void next() {
            current = map.higherEntry(current.getKey());
        }

        @Override
        public void prev() {
            current = map.lowerEntry(current.getKey());
        }

        @Override
        public byte[] key() {
            return current.getKey().clone();
        }

        @Override
        public byte[] value() {
            return current.getValue().clone();
        }

        @Override
        public void close() {}
    }
}
