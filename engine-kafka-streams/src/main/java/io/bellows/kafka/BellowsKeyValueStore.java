package io.bellows.kafka;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams key-value store of serialized keys and values over one Bellows engine, in
 * {@code <task state dir>/bellows/<name>}. Like Kafka's RocksDB store it writes without a WAL: the
 * changelog topic is the log, and {@link #flush()} (called at every commit) makes the MemStore durable.
 * Restoration writes the changelog in WriteBatches, one per batch Kafka hands over.
 */
class BellowsKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(BellowsKeyValueStore.class);
    private static final WriteOptions NO_WAL = WriteOptions.noWal();

    private final String name;
    private final EngineOptions options;
    private final Set<CursorIterator> openIterators = ConcurrentHashMap.newKeySet();
    private final Position position = Position.emptyPosition();
    private StateStoreContext context;
    private StoreEngines.Opened opened;
    private volatile Engine engine;

    BellowsKeyValueStore(String name, EngineOptions options) {
        this.name = name;
        this.options = options;
    }

    /** The store for Kafka's timestamped format: values carry their record timestamp in front. */
    static final class Timestamped extends BellowsKeyValueStore implements TimestampedBytesStore {
        Timestamped(String name, EngineOptions options) {
            super(name, options);
        }
    }

    /** The store for Kafka's headers format: values carry their headers and timestamp in front. */
    static final class WithHeaders extends BellowsKeyValueStore implements HeadersBytesStore {
        WithHeaders(String name, EngineOptions options) {
            super(name, options);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        opened = StoreEngines.open(name, StoreEngines.storeDir(context, name), options, context.appConfigs());
        engine = opened.engine();
        context.register(root, (BatchingStateRestoreCallback) this::restoreAll);
    }

    /** Writes a batch of changelog records (a null value deletes) as one WriteBatch, without the WAL. */
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        Engine e = engine();
        WriteBatch batch = new WriteBatch();
        for (KeyValue<byte[], byte[]> r : records) {
            if (r.value == null) {
                batch.delete(r.key);
            } else {
                batch.put(r.key, r.value);
            }
        }
        e.write(batch, NO_WAL);
    }

    @Override
    public void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        Engine e = engine();
        if (value == null) {
            e.delete(key.get(), NO_WAL);
        } else {
            e.put(key.get(), value, NO_WAL);
        }
        Positions.update(position, context);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] old = get(key);
        if (old == null && value != null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        WriteBatch batch = new WriteBatch();
        for (KeyValue<Bytes, byte[]> kv : entries) {
            Objects.requireNonNull(kv.key, "key cannot be null");
            if (kv.value == null) {
                batch.delete(kv.key.get());
            } else {
                batch.put(kv.key.get(), kv.value);
            }
        }
        engine().write(batch, NO_WAL);
        Positions.update(position, context);
    }

    @Override
    public byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] old = get(key);
        put(key, null);
        return old;
    }

    @Override
    public byte[] get(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        try {
            return engine().get(key.get());
        } catch (EngineClosedException e) {
            throw closedUnder(e);
        }
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return range(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return range(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return range(null, null, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return range(null, null, false);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        Objects.requireNonNull(prefix, "prefix cannot be null");
        Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
        byte[] from = prefixKeySerializer.serialize(null, prefix);
        return iterator(ReadOptions.defaults().from(from).to(KeyRanges.prefixEnd(from)), true);
    }

    private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean forward) {
        engine();
        if (KeyRanges.inverted(from, to, LOG)) {
            return KeyRanges.empty();
        }
        return iterator(ReadOptions.defaults().from(KeyRanges.bytes(from))
                .to(KeyRanges.inclusiveToExclusive(KeyRanges.bytes(to))), forward);
    }

    private KeyValueIterator<Bytes, byte[]> iterator(ReadOptions read, boolean forward) {
        Cursor cursor;
        try {
            cursor = engine().cursor(read);
        } catch (EngineClosedException e) {
            throw closedUnder(e);
        }
        CursorIterator it = new CursorIterator(cursor, forward, name, openIterators::remove);
        openIterators.add(it);
        return it;
    }

    /**
     * The exact number of live keys, counted by a scan: the engine keeps no per-table key counts in its
     * public API, so this is O(n) rather than RocksDB's O(1) estimate.
     */
    @Override
    public long approximateNumEntries() {
        // RocksDB's store answers from rocksdb.estimate-num-keys, without reading data; so does this one.
        return engine().stats().estimatedKeys();
    }

    @Override
    public void flush() {
        Engine e = engine;
        if (e != null) {
            e.flush();
        }
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return engine != null;
    }

    @Override
    public synchronized void close() {
        if (engine == null) {
            return;
        }
        engine = null;
        for (CursorIterator it : openIterators) {
            it.closeForStore();
        }
        openIterators.clear();
        opened.close(name);
        opened = null;
    }

    @Override
    public Position getPosition() {
        return position;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return Queries.run(this, position, context, query, positionBound, config, q -> {
            if (q instanceof KeyQuery<?, ?> kq) {
                return QueryResult.forResult(get((Bytes) kq.getKey()));
            }
            if (q instanceof RangeQuery<?, ?> rq) {
                Bytes lo = (Bytes) rq.getLowerBound().orElse(null);
                Bytes hi = (Bytes) rq.getUpperBound().orElse(null);
                return QueryResult.forResult(range(lo, hi, rq.resultOrder() != ResultOrder.DESCENDING));
            }
            return null;
        });
    }

    /** An interactive query that raced with close sees what Kafka's stores throw then, which Kafka retries on. */
    private InvalidStateStoreException closedUnder(EngineClosedException e) {
        InvalidStateStoreException ex = new InvalidStateStoreException("Store " + name + " is currently closed.");
        ex.initCause(e);
        return ex;
    }

    private Engine engine() {
        Engine e = engine;
        if (e == null) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed.");
        }
        return e;
    }
}
