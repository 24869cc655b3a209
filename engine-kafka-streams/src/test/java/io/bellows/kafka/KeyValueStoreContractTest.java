package io.bellows.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key-value store contract on TopologyTestDriver, at the byte level where Kafka's suite works with
 * integers: inclusive bounds, null bounds, inverted ranges, keys that are prefixes of one another, reverse
 * order, prefix scans at 0xFF, putAll with deletes, and the store's directory and close.
 */
class KeyValueStoreContractTest {
    private static final String STORE = "kv";

    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private KeyValueStore<Bytes, byte[]> store;

    @BeforeEach
    void open() {
        driver = newDriver();
        store = driver.getKeyValueStore(STORE);
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private TopologyTestDriver newDriver() {
        Topology topology = new Topology();
        topology.addSource("src", new ByteArrayDeserializer(), new ByteArrayDeserializer(), "in");
        topology.addProcessor("noop", () -> new Processor<Object, Object, Object, Object>() {
            @Override
            public void process(Record<Object, Object> record) {
            }
        }, "src");
        topology.addStateStore(Stores.keyValueStoreBuilder(BellowsStores.keyValueStore(STORE), Serdes.Bytes(),
                Serdes.ByteArray()).withLoggingDisabled(), "noop");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "contract");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return new TopologyTestDriver(topology, props);
    }

    private static Bytes b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return Bytes.wrap(out);
    }

    private static List<Bytes> keys(KeyValueIterator<Bytes, byte[]> it) {
        List<Bytes> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(it.next().key);
            }
        }
        return out;
    }

    private void putAll(Bytes... keys) {
        for (Bytes k : keys) {
            store.put(k, k.get());
        }
    }

    @Test
    void rangesIncludeBothBoundsAndNullMeansUnbounded() {
        Bytes a = b('a');
        Bytes a0 = b('a', 0);
        Bytes ab = b('a', 'b');
        Bytes b1 = b('b');
        Bytes ff = b(0xFF, 0xFF);
        putAll(ab, a0, ff, a, b1);
        assertEquals(List.of(a, a0, ab, b1, ff), keys(store.all()));
        assertEquals(List.of(ff, b1, ab, a0, a), keys(store.reverseAll()));
        assertEquals(List.of(a, a0, ab), keys(store.range(a, ab)));
        assertEquals(List.of(ab, a0, a), keys(store.reverseRange(a, ab)));
        assertEquals(List.of(a), keys(store.range(a, a)), "from == to is the one key");
        assertEquals(List.of(a0, ab, b1), keys(store.range(a0, b1)));
        assertEquals(List.of(a, a0, ab), keys(store.range(null, ab)));
        assertEquals(List.of(b1, ff), keys(store.range(b1, null)));
        assertEquals(List.of(ff, b1), keys(store.reverseRange(b1, null)));
        assertEquals(List.of(a, a0, ab, b1, ff), keys(store.range(null, null)));
        assertEquals(List.of(), keys(store.range(b('a', 'a'), b('a', 'a', 0xFF))), "a range between keys is empty");
    }

    @Test
    void invertedRangeIsEmptyInBothDirections() {
        putAll(b(1), b(2), b(3));
        assertFalse(store.range(b(3), b(1)).hasNext());
        assertFalse(store.reverseRange(b(3), b(1)).hasNext());
    }

    @Test
    void prefixScanStopsAtTheFirstKeyOutsideThePrefix() {
        putAll(b('p'), b('p', 0), b('p', 0xFF), b('p', 0xFF, 0xFF), b('q'), b(0xFF), b(0xFF, 1), b(0xFF, 0xFF));
        assertEquals(List.of(b('p'), b('p', 0), b('p', 0xFF), b('p', 0xFF, 0xFF)),
                keys(store.prefixScan(b('p').get(), new ByteArraySerializer())));
        assertEquals(List.of(b('p', 0xFF), b('p', 0xFF, 0xFF)),
                keys(store.prefixScan(b('p', 0xFF).get(), new ByteArraySerializer())));
        assertEquals(List.of(b(0xFF), b(0xFF, 1), b(0xFF, 0xFF)),
                keys(store.prefixScan(b(0xFF).get(), new ByteArraySerializer())), "a prefix of 0xFF bytes has no end key");
        assertEquals(List.of(), keys(store.prefixScan(b('o').get(), new ByteArraySerializer())));
    }

    @Test
    void writesReadBackAndDeleteReturnsTheOldValue() {
        assertNull(store.putIfAbsent(b(1), new byte[] {10}));
        assertArrayEquals(new byte[] {10}, store.putIfAbsent(b(1), new byte[] {11}));
        assertArrayEquals(new byte[] {10}, store.get(b(1)));
        store.putAll(List.of(KeyValue.pair(b(2), new byte[] {20}), KeyValue.pair(b(3), new byte[] {30}),
                KeyValue.pair(b(1), null)));
        assertNull(store.get(b(1)), "a null value in putAll deletes");
        // RocksDB's estimate: four entries in the MemStore, minus twice its one tombstone.
        assertEquals(2, store.approximateNumEntries());
        assertArrayEquals(new byte[] {20}, store.delete(b(2)));
        assertNull(store.delete(b(2)));
        store.put(b(3), null);
        assertEquals(0, store.approximateNumEntries());
        store.put(b(4), new byte[0]);
        assertArrayEquals(new byte[0], store.get(b(4)), "an empty value is a value, not a delete");
    }

    @Test
    void iteratorSeesTheStateOfWhenItWasMadeAndPeeks() {
        putAll(b(1), b(3));
        KeyValueIterator<Bytes, byte[]> it = store.all();
        store.put(b(2), new byte[] {2});
        store.delete(b(3));
        assertEquals(b(1), it.peekNextKey());
        assertEquals(List.of(b(1), b(3)), keys(it));
        assertEquals(List.of(b(1), b(2)), keys(store.all()));
    }

    @Test
    void storeLivesUnderTheTaskStateDirAndClosingClosesItsIterators() {
        putAll(b(1), b(2));
        store.flush();
        assertTrue(Files.isDirectory(stateDir.resolve("contract").resolve("0_0").resolve("bellows").resolve(STORE)));
        KeyValueIterator<Bytes, byte[]> open = store.all();
        driver.close();
        driver = null;
        assertThrows(InvalidStateStoreException.class, open::hasNext);
        assertThrows(InvalidStateStoreException.class, () -> store.get(b(1)));
    }
}
