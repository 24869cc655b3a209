package io.bellows.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The raw store's lifecycle: data kept across close and reopen (a rebalance moving the task away and
 * back), the config setter's hook and its effect on the engine, and interactive queries (KIP-796).
 */
class StoreLifecycleTest {
    @TempDir
    Path stateDir;

    /** Records what it was called with and puts the store on FLSM. */
    public static final class FlsmSetter implements BellowsConfigSetter {
        static final List<String> CALLS = new ArrayList<>();

        @Override
        public void setConfig(String storeName, EngineOptions.Builder options, Map<String, Object> configs) {
            CALLS.add("set " + storeName + " " + configs.get("custom.key"));
            options.compaction(CompactionStyle.FLSM);
        }

        @Override
        public void close(String storeName, EngineOptions options) {
            CALLS.add("close " + storeName + " " + options.compaction());
        }
    }

    private StateStoreContext context(Object setter) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "lifecycle");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put("custom.key", "custom-value");
        if (setter != null) {
            props.put(BellowsConfigSetter.CONFIG, setter);
        }
        return new MockProcessorContext<>(props, new TaskId(0, 3), stateDir.toFile()).getStateStoreContext();
    }

    private static Bytes key(String s) {
        return Bytes.wrap(s.getBytes());
    }

    /** A restore batch is written in key order; a key's records keep their changelog order, the last wins. */
    @Test
    void restoredBatchKeepsChangelogOrderPerKey() {
        KeyValueStore<Bytes, byte[]> store = BellowsStores.keyValueStore("kv").get();
        store.init(context(null), store);
        ((BellowsKeyValueStore) store).restoreAll(List.of(KeyValue.pair("b".getBytes(), new byte[] {1}),
                KeyValue.pair("a".getBytes(), new byte[] {1}), KeyValue.pair("b".getBytes(), new byte[] {2}),
                KeyValue.pair("a".getBytes(), null), KeyValue.pair("c".getBytes(), new byte[] {1}),
                KeyValue.pair("b".getBytes(), null), KeyValue.pair("c".getBytes(), new byte[] {2}),
                KeyValue.pair("b".getBytes(), new byte[] {3}), KeyValue.pair("d".getBytes(), new byte[] {1}),
                KeyValue.pair("d".getBytes(), null)));
        assertNull(store.get(key("a")));
        assertArrayEquals(new byte[] {3}, store.get(key("b")));
        assertArrayEquals(new byte[] {2}, store.get(key("c")));
        assertNull(store.get(key("d")));
        store.close();
    }

    @Test
    void reopenedStoreHasItsDataBack() {
        StateStoreContext ctx = context(null);
        KeyValueStore<Bytes, byte[]> store = BellowsStores.keyValueStore("kv").get();
        store.init(ctx, store);
        store.putAll(List.of(KeyValue.pair(key("a"), new byte[] {1}), KeyValue.pair(key("b"), new byte[] {2})));
        store.close();
        assertFalse(store.isOpen());
        KeyValueStore<Bytes, byte[]> again = BellowsStores.keyValueStore("kv").get();
        again.init(ctx, again);
        assertTrue(again.isOpen());
        assertTrue(again.persistent());
        assertArrayEquals(new byte[] {2}, again.get(key("b")));
        assertEquals(2, again.approximateNumEntries());
        again.close();
    }

    @Test
    void configSetterShapesTheEngineAndIsClosedWithIt() {
        FlsmSetter.CALLS.clear();
        KeyValueStore<Bytes, byte[]> store = BellowsStores.keyValueStore("tuned").get();
        store.init(context(FlsmSetter.class.getName()), store);
        store.put(key("k"), new byte[] {1});
        store.close();
        assertEquals(List.of("set tuned custom-value", "close tuned FLSM"), FlsmSetter.CALLS);
        Path dir = stateDir.resolve("bellows").resolve("tuned");
        assertThrows(RuntimeException.class, () -> Engine.open(dir, EngineOptions.defaults()).close(),
                "the store was made by FLSM, so opening it as LEVELED must fail");
        try (Engine e = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.FLSM).build())) {
            assertArrayEquals(new byte[] {1}, e.get(key("k").get()));
        }
    }

    @Test
    void answersKeyAndRangeQueries() {
        KeyValueStore<Bytes, byte[]> store = BellowsStores.keyValueStore("iq").get();
        store.init(context(null), store);
        for (String k : List.of("a", "b", "c", "d")) {
            store.put(key(k), k.getBytes());
        }
        QueryConfig config = new QueryConfig(true);
        QueryResult<byte[]> one = store.query(KeyQuery.<Bytes, byte[]>withKey(key("c")), PositionBound.unbounded(), config);
        assertTrue(one.isSuccess());
        assertArrayEquals("c".getBytes(), one.getResult());
        assertFalse(one.getExecutionInfo().isEmpty());
        QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(
                RangeQuery.<Bytes, byte[]>withRange(key("b"), key("c")).withDescendingKeys(), PositionBound.unbounded(), config);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
            it.forEachRemaining(kv -> keys.add(new String(kv.key.get())));
        }
        assertEquals(List.of("c", "b"), keys);
        QueryResult<KeyValueIterator<Bytes, byte[]>> upper = store.query(
                RangeQuery.<Bytes, byte[]>withUpperBound(key("b")), PositionBound.unbounded(), config);
        keys.clear();
        try (KeyValueIterator<Bytes, byte[]> it = upper.getResult()) {
            it.forEachRemaining(kv -> keys.add(new String(kv.key.get())));
        }
        assertEquals(List.of("a", "b"), keys);
        store.close();
    }

    @Test
    void windowAndSessionStoresAnswerTheirQueries() {
        StateStoreContext ctx = context(null);
        // Through Kafka's metered layer, as in an application: Kafka 4.3.1's WindowKeyQuery stores its time
        // bounds swapped, and the metered store's copy of the query swaps them back for the inner store.
        WindowStore<Bytes, byte[]> windows = Stores.windowStoreBuilder(BellowsStores.windowStore("w", Duration.ofMinutes(10),
                Duration.ofMinutes(1), false), Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();
        windows.init(ctx, windows);
        for (long start = 0; start < 300_000; start += 60_000) {
            windows.put(key("a"), new byte[] {(byte) (start / 60_000)}, start);
            windows.put(key("b"), new byte[] {(byte) (start / 60_000)}, start);
        }
        QueryConfig config = new QueryConfig(false);
        QueryResult<WindowStoreIterator<byte[]>> one = windows.query(WindowKeyQuery.<Bytes, byte[]>withKeyAndWindowStartRange(
                key("a"), Instant.ofEpochMilli(60_000), Instant.ofEpochMilli(180_000)), PositionBound.unbounded(), config);
        List<Long> starts = new ArrayList<>();
        try (WindowStoreIterator<byte[]> it = one.getResult()) {
            it.forEachRemaining(kv -> starts.add(kv.key));
        }
        assertEquals(List.of(60_000L, 120_000L, 180_000L), starts);
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> all = windows.query(
                WindowRangeQuery.<Bytes, byte[]>withWindowStartRange(Instant.ofEpochMilli(240_000), Instant.ofEpochMilli(240_000)),
                PositionBound.unbounded(), config);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Windowed<Bytes>, byte[]> it = all.getResult()) {
            it.forEachRemaining(kv -> keys.add(new String(kv.key.key().get()) + "@" + kv.key.window().start()));
        }
        assertEquals(List.of("a@240000", "b@240000"), keys);
        assertFalse(windows.query(WindowRangeQuery.<Bytes, byte[]>withKey(key("a")), PositionBound.unbounded(), config)
                .isSuccess(), "a window store does not serve key-only range queries, as in Kafka");
        windows.close();

        SessionStore<Bytes, byte[]> sessions = Stores.sessionStoreBuilder(BellowsStores.sessionStore("s", Duration.ofMinutes(10)),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();
        sessions.init(ctx, sessions);
        sessions.put(new Windowed<>(key("a"), new SessionWindow(0, 10)), new byte[] {1});
        sessions.put(new Windowed<>(key("a"), new SessionWindow(100, 150)), new byte[] {2});
        sessions.put(new Windowed<>(key("b"), new SessionWindow(5, 7)), new byte[] {3});
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> mine = sessions.query(
                WindowRangeQuery.<Bytes, byte[]>withKey(key("a")), PositionBound.unbounded(), config);
        List<String> got = new ArrayList<>();
        try (KeyValueIterator<Windowed<Bytes>, byte[]> it = mine.getResult()) {
            it.forEachRemaining(kv -> got.add(kv.key.window().start() + "-" + kv.key.window().end()));
        }
        assertEquals(List.of("0-10", "100-150"), got);
        sessions.close();
    }
}
