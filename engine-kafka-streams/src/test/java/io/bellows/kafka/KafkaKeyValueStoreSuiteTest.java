package io.bellows.kafka;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.AbstractKeyValueStoreTest;

/**
 * Kafka's own key-value store suite (AbstractKeyValueStoreTest from the kafka-streams test jar, the
 * one RocksDBKeyValueStoreTest extends) run against Bellows' store behind Kafka's metered, serde layer.
 */
class KafkaKeyValueStoreSuiteTest extends AbstractKeyValueStoreTest {
    @Override
    @SuppressWarnings("unchecked")
    protected <K, V> KeyValueStore<K, V> createKeyValueStore(StateStoreContext context) {
        KeyValueStore<K, V> store = Stores.keyValueStoreBuilder(BellowsStores.keyValueStore("my-store"),
                (Serde<K>) context.keySerde(), (Serde<V>) context.valueSerde()).build();
        store.init(context, store);
        return store;
    }
}
