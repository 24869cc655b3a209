package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;

/**
 * What the window and session stores share: their time {@link Segments} (one Bellows engine each), the
 * lifecycle Kafka drives (init with batch restore, flush, close with the iterators still open), the
 * observed stream time that expiry follows, and the checks that tell a read from a closed store from a
 * write to one.
 */
abstract class SegmentedStore implements StateStore {
    final String name;
    final long retention;
    final long segmentInterval;
    final EngineOptions options;
    final Set<SegmentIterator<?>> openIterators = ConcurrentHashMap.newKeySet();
    final Position position = Position.emptyPosition();
    StateStoreContext context;
    volatile Segments segments;
    volatile boolean open;
    Sensor expiredRecords;
    volatile long observedStreamTime = -1;

    SegmentedStore(String name, long retention, long segmentInterval, EngineOptions options) {
        this.name = name;
        this.retention = retention;
        this.segmentInterval = segmentInterval;
        this.options = options;
    }

    /** Writes changelog records (Kafka's changelog key format of the store), one batch per segment, without the WAL. */
    abstract void restoreAll(Collection<KeyValue<byte[], byte[]>> records);

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        Segments s = new Segments(name, StoreEngines.storeDir(context, name), retention, segmentInterval, options,
                context.appConfigs());
        s.openExisting();
        segments = s;
        open = true;
        expiredRecords = DroppedRecords.sensor(context, name);
        context.register(root, (BatchingStateRestoreCallback) this::restoreAll);
    }

    @Override
    public void flush() {
        Segments s = segments;
        if (s != null) {
            s.flush();
        }
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        Segments s = segments;
        if (s == null) {
            return;
        }
        open = false;
        for (SegmentIterator<?> it : openIterators) {
            it.closeCursor();
        }
        openIterators.clear();
        s.close();
    }

    @Override
    public Position getPosition() {
        return position;
    }

    /**
     * The segments to read: after {@link #close()} none are open, so reads find nothing, as with Kafka's
     * segmented stores; writes must check {@link #writable()} instead.
     */
    Segments segments() {
        Segments s = segments;
        if (s == null) {
            throw new InvalidStateStoreException("Store " + name + " has not been initialized.");
        }
        return s;
    }

    Segments writable() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed.");
        }
        return segments;
    }
}
