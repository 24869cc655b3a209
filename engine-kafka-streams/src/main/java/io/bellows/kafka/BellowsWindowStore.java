package io.bellows.kafka;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.TimeWindow;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams window store over time {@link Segments}, one Bellows engine each. A record lives in the
 * segment of its window start, under {@link TimeKeys#windowKey}; reads skip windows that started at or
 * before the observed stream time minus the retention period, and whole segments past it are deleted.
 * Writes go without a WAL (the changelog is the log); {@link #flush()} makes them durable.
 */
class BellowsWindowStore extends SegmentedStore implements WindowStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(BellowsWindowStore.class);
    private static final WriteOptions NO_WAL = WriteOptions.noWal();
    private static final int SUFFIX = TimeKeys.WINDOW_SUFFIX;

    private final long windowSize;
    private final boolean retainDuplicates;
    /**
     * 1, or 0 for the store of an emit-on-window-close aggregation: Kafka's time-ordered window store,
     * which the DSL gives such aggregations, still serves windows starting exactly at stream time minus
     * the retention period, and the aggregation emits the window that closed last from there.
     */
    private final long expiryOffset;
    private int seqnum;

    BellowsWindowStore(String name, long retention, long segmentInterval, long windowSize, boolean retainDuplicates,
            EngineOptions options, boolean emitOnWindowClose) {
        super(name, retention, segmentInterval, options);
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
        this.expiryOffset = emitOnWindowClose ? 0 : 1;
    }

    /** A window store of Kafka's timestamped values. */
    static final class Timestamped extends BellowsWindowStore implements TimestampedBytesStore {
        Timestamped(String name, long retention, long interval, long size, boolean dups, EngineOptions options,
                boolean emitOnWindowClose) {
            super(name, retention, interval, size, dups, options, emitOnWindowClose);
        }
    }

    /** A window store of Kafka's values with headers and timestamp. */
    static final class WithHeaders extends BellowsWindowStore implements TimestampedBytesStore, HeadersBytesStore {
        WithHeaders(String name, long retention, long interval, long size, boolean dups, EngineOptions options,
                boolean emitOnWindowClose) {
            super(name, retention, interval, size, dups, options, emitOnWindowClose);
        }
    }

    /**
     * Writes changelog records, keyed as Kafka's window changelog is (key, 8-byte window start, 4-byte
     * sequence number), one WriteBatch per segment, without the WAL; expired records are skipped.
     */
    @Override
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        Segments s = segments();
        Map<Long, WriteBatch> batches = new TreeMap<>();
        for (KeyValue<byte[], byte[]> r : records) {
            int n = r.key.length - SUFFIX;
            ByteBuffer suffix = ByteBuffer.wrap(r.key, n, SUFFIX);
            long start = suffix.getLong();
            int seq = suffix.getInt();
            observedStreamTime = Math.max(observedStreamTime, start);
            byte[] key = TimeKeys.windowKey(Arrays.copyOf(r.key, n), start, seq);
            WriteBatch b = batches.computeIfAbsent(s.segmentId(start), id -> new WriteBatch());
            if (r.value == null) {
                b.delete(key);
            } else {
                b.put(key, r.value);
            }
        }
        s.writeRestored(batches, observedStreamTime);
    }

    @Override
    public void put(Bytes key, byte[] value, long windowStartTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        Segments s = writable();
        if (value == null && retainDuplicates) {
            return;
        }
        if (retainDuplicates) {
            seqnum = (seqnum + 1) & 0x7FFFFFFF;
        }
        observedStreamTime = Math.max(observedStreamTime, windowStartTimestamp);
        Engine seg = s.getOrCreateIfLive(windowStartTimestamp, observedStreamTime);
        if (seg == null) {
            expiredRecords.record();
            LOG.warn("Skipping record for expired segment.");
        } else {
            byte[] k = TimeKeys.windowKey(key.get(), windowStartTimestamp, retainDuplicates ? seqnum : 0);
            if (value == null) {
                seg.delete(k, NO_WAL);
            } else {
                seg.put(k, value, NO_WAL);
            }
        }
        Positions.update(position, context);
    }

    @Override
    public byte[] fetch(Bytes key, long time) {
        Objects.requireNonNull(key, "key cannot be null");
        Segments s = segments();
        if (time < observedStreamTime - retention + expiryOffset) {
            return null;
        }
        Engine seg = s.get(time);
        return seg == null ? null : seg.get(TimeKeys.windowKey(key.get(), time, 0));
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, true);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, false);
    }

    private WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo, boolean forward) {
        Objects.requireNonNull(key, "key cannot be null");
        Segments s = segments();
        long from = actualFrom(timeFrom);
        byte[] k = key.get();
        byte[] lo = TimeKeys.windowKey(k, from, 0);
        byte[] hi = KeyRanges.inclusiveToExclusive(TimeKeys.windowKey(k, timeTo, -1));
        SegmentIterator<Long> it = track(new SegmentIterator<>(s.segments(from, timeTo, forward), lo, hi, forward,
                e -> true, (ek, v) -> KeyValue.pair(TimeKeys.firstTime(ek, SUFFIX), v), name, openIterators::remove));
        return new WindowIterator(it);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return fetchRange(keyFrom, keyTo, timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return fetchRange(keyFrom, keyTo, timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return fetchRange(null, null, timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return fetchRange(null, null, timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return fetchRange(null, null, Long.MIN_VALUE, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return fetchRange(null, null, Long.MIN_VALUE, Long.MAX_VALUE, false);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> fetchRange(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo,
            boolean forward) {
        Segments s = segments();
        if (KeyRanges.inverted(keyFrom, keyTo, LOG)) {
            return KeyRanges.empty();
        }
        long from = actualFrom(timeFrom);
        if (from > timeTo) {
            return KeyRanges.empty();
        }
        byte[] lo = keyFrom == null ? null : TimeKeys.keyStart(keyFrom.get());
        byte[] hi = keyTo == null ? null : TimeKeys.keyEnd(keyTo.get());
        return track(new SegmentIterator<>(s.segments(from, timeTo, forward), lo, hi, forward, ek -> {
            long t = TimeKeys.firstTime(ek, SUFFIX);
            return t >= from && t <= timeTo;
        }, this::windowedEntry, name, openIterators::remove));
    }

    private KeyValue<Windowed<Bytes>, byte[]> windowedEntry(byte[] encoded, byte[] value) {
        long start = TimeKeys.firstTime(encoded, SUFFIX);
        long end = windowSize > Long.MAX_VALUE - start ? Long.MAX_VALUE : start + windowSize;
        return KeyValue.pair(new Windowed<>(Bytes.wrap(TimeKeys.key(encoded, SUFFIX)), new TimeWindow(start, end)), value);
    }

    /** The first window start still within retention; older windows are expired, whatever is on disk. */
    private long actualFrom(long timeFrom) {
        return Math.max(timeFrom, observedStreamTime - retention + expiryOffset);
    }

    private <K> SegmentIterator<K> track(SegmentIterator<K> it) {
        openIterators.add(it);
        return it;
    }

    /** Answers a key's windows in a start-time range, and every key's windows in one, as Kafka's window stores do. */
    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return Queries.run(this, position, context, query, positionBound, config, q -> {
            if (q instanceof WindowKeyQuery<?, ?> wk && wk.getTimeFrom().isPresent() && wk.getTimeTo().isPresent()) {
                return QueryResult.forResult(fetch((Bytes) wk.getKey(), wk.getTimeFrom().get().toEpochMilli(),
                        wk.getTimeTo().get().toEpochMilli()));
            }
            if (q instanceof WindowRangeQuery<?, ?> wr && wr.getTimeFrom().isPresent() && wr.getTimeTo().isPresent()) {
                return QueryResult.forResult(fetchAll(wr.getTimeFrom().get().toEpochMilli(),
                        wr.getTimeTo().get().toEpochMilli()));
            }
            return null;
        });
    }

    /** Kafka's single-key window iterator: window start times and values. */
    private static final class WindowIterator implements WindowStoreIterator<byte[]> {
        private final SegmentIterator<Long> it;

        WindowIterator(SegmentIterator<Long> it) {
            this.it = it;
        }

        @Override
        public boolean hasNext() {
            return it.hasNext();
        }

        @Override
        public KeyValue<Long, byte[]> next() {
            return it.next();
        }

        @Override
        public Long peekNextKey() {
            return it.peekNextKey();
        }

        @Override
        public void close() {
            it.close();
        }
    }
}
