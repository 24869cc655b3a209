package io.bellows.bench;

import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineStats;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.util.List;

/** {@link BenchEngine} over a Bellows {@link Engine}, through its public API only. */
final class BellowsEngine implements BenchEngine {
    private final Engine db;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions = ReadOptions.defaults();

    BellowsEngine(Engine db, Durability durability) {
        this.db = db;
        this.writeOptions = WriteOptions.of(durability);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value, writeOptions);
    }

    @Override
    public void delete(byte[] key) {
        db.delete(key, writeOptions);
    }

    @Override
    public Batch newBatch() {
        WriteBatch batch = new WriteBatch();
        return new Batch() {
            @Override
            public void put(byte[] key, byte[] value) {
                batch.put(key, value);
            }

            @Override
            public void delete(byte[] key) {
                batch.delete(key);
            }

            @Override
            public int count() {
                return batch.count();
            }

            @Override
            public void commit() {
                db.write(batch, writeOptions);
                batch.clear();
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return db.get(key, dst, 0, readOptions);
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
        return db.multiGet(keys, readOptions);
    }

    @Override
    public Scan scan() {
        return scan(null, null);
    }

    @Override
    public Scan scan(byte[] lower, byte[] upper) {
        Cursor c = db.cursor(readOptions.from(lower).to(upper));
        return new Scan() {
            @Override
            public void seekToFirst() {
                c.seekToFirst();
            }

            @Override
            public void seek(byte[] key) {
                c.seek(key);
            }

            @Override
            public void seekForPrev(byte[] key) {
                c.seekForPrev(key);
            }

            @Override
            public void seekToLast() {
                c.seekToLast();
            }

            @Override
            public boolean isValid() {
                return c.isValid();
            }

            @Override
            public void next() {
                c.next();
            }

            @Override
            public void prev() {
                c.prev();
            }

            @Override
            public byte[] key() {
                return c.key();
            }

            @Override
            public byte[] value() {
                return c.value();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    @Override
    public EngineStats stats() {
        return db.stats();
    }

    @Override
    public void close() {
        db.close();
    }
}
