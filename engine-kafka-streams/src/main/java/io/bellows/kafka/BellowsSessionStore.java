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
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams session store over time {@link Segments}, one Bellows engine each. A session lives in
 * the segment of its end time, under {@link TimeKeys#sessionKey} (key, end, start), so one key's sessions
 * are contiguous and ordered by end time. Reads skip sessions that ended at or before the observed stream
 * time minus the retention period; whole segments past it are deleted. Writes go without a WAL.
 */
class BellowsSessionStore extends SegmentedStore implements SessionStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(BellowsSessionStore.class);
    private static final WriteOptions NO_WAL = WriteOptions.noWal();
    private static final int SUFFIX = TimeKeys.SESSION_SUFFIX;


    BellowsSessionStore(String name, long retention, long segmentInterval, EngineOptions options) {
        super(name, retention, segmentInterval, options);
    }

    /** A session store of Kafka's values with headers. */
    static final class WithHeaders extends BellowsSessionStore implements HeadersBytesStore {
        WithHeaders(String name, long retention, long interval, EngineOptions options) {
            super(name, retention, interval, options);
        }
    }

    /**
     * Writes changelog records, keyed as Kafka's session changelog is (key, 8-byte end, 8-byte start), one
     * WriteBatch per segment, without the WAL; expired records are skipped.
     */
    @Override
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        Segments s = segments();
        Map<Long, WriteBatch> batches = new TreeMap<>();
        for (KeyValue<byte[], byte[]> r : records) {
            int n = r.key.length - SUFFIX;
            ByteBuffer suffix = ByteBuffer.wrap(r.key, n, SUFFIX);
            long end = suffix.getLong();
            long start = suffix.getLong();
            observedStreamTime = Math.max(observedStreamTime, end);
            byte[] key = TimeKeys.sessionKey(Arrays.copyOf(r.key, n), end, start);
            WriteBatch b = batches.computeIfAbsent(s.segmentId(end), id -> new WriteBatch());
            if (r.value == null) {
                b.delete(key);
            } else {
                b.put(key, r.value);
            }
        }
        s.writeRestored(batches, observedStreamTime);
    }

    @Override
    public void put(Windowed<Bytes> sessionKey, byte[] aggregate) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        Objects.requireNonNull(sessionKey.key(), "sessionKey.key() cannot be null");
        Segments s = writable();
        long end = sessionKey.window().end();
        observedStreamTime = Math.max(observedStreamTime, end);
        Engine seg = s.getOrCreateIfLive(end, observedStreamTime);
        if (seg == null) {
            expiredRecords.record();
            LOG.warn("Skipping record for expired segment.");
        } else {
            byte[] k = TimeKeys.sessionKey(sessionKey.key().get(), end, sessionKey.window().start());
            if (aggregate == null) {
                seg.delete(k, NO_WAL);
            } else {
                seg.put(k, aggregate, NO_WAL);
            }
        }
        Positions.update(position, context);
    }

    @Override
    public void remove(Windowed<Bytes> sessionKey) {
        put(sessionKey, null);
    }

    @Override
    public byte[] fetchSession(Bytes key, long start, long end) {
        Objects.requireNonNull(key, "key cannot be null");
        Segments s = segments();
        if (end <= observedStreamTime - retention) {
            return null;
        }
        Engine seg = s.get(end);
        return seg == null ? null : seg.get(TimeKeys.sessionKey(key.get(), end, start));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes key, long earliestSessionEndTime,
            long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes key, long earliestSessionEndTime,
            long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes keyFrom, Bytes keyTo, long earliestSessionEndTime,
            long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes keyFrom, Bytes keyTo,
            long earliestSessionEndTime, long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, false);
    }

    /** Sessions of keys in [keyFrom, keyTo] (null: unbounded) that end at or after one time and start at or before another. */
    private KeyValueIterator<Windowed<Bytes>, byte[]> find(Bytes keyFrom, Bytes keyTo, long earliestEnd, long latestStart,
            boolean forward) {
        Segments s = segments();
        if (KeyRanges.inverted(keyFrom, keyTo, LOG)) {
            return KeyRanges.empty();
        }
        long from = actualFrom(earliestEnd);
        return iterate(s, keyFrom, keyTo, from, Long.MAX_VALUE, forward, ek ->
                TimeKeys.firstTime(ek, SUFFIX) >= from && TimeKeys.sessionStart(ek) <= latestStart);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> iterate(Segments s, Bytes keyFrom, Bytes keyTo, long endFrom, long endTo,
            boolean forward, Predicate<byte[]> accept) {
        byte[] lo = keyFrom == null ? null : TimeKeys.keyStart(keyFrom.get());
        byte[] hi = keyTo == null ? null : TimeKeys.keyEnd(keyTo.get());
        SegmentIterator<Windowed<Bytes>> it = new SegmentIterator<>(s.segments(endFrom, endTo, forward), lo, hi, forward,
                accept, (ek, v) -> KeyValue.pair(new Windowed<>(Bytes.wrap(TimeKeys.key(ek, SUFFIX)),
                        new SessionWindow(TimeKeys.sessionStart(ek), TimeKeys.firstTime(ek, SUFFIX))), v),
                name, openIterators::remove);
        openIterators.add(it);
        return it;
    }

    /** The earliest session end still within retention; sessions that ended before are expired. */
    private long actualFrom(long earliestEnd) {
        return Math.max(earliestEnd, observedStreamTime - retention + 1);
    }

    /** Answers a key's sessions, as Kafka's session stores do. */
    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return Queries.run(this, position, context, query, positionBound, config, q -> {
            if (q instanceof WindowRangeQuery<?, ?> wr && wr.getKey().isPresent()) {
                return QueryResult.forResult(fetch((Bytes) wr.getKey().get()));
            }
            return null;
        });
    }
}
