package org.apache.kafka.streams.state.internals;

import io.bellows.kafka.BellowsStores;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Kafka's own session store suite (AbstractSessionBytesStoreTest from the kafka-streams test jar) run
 * against Bellows' session store, holding it to what the suite expects of Kafka's RocksDB session store.
 * It lives in Kafka's package because the suite's factory methods are package-private.
 */
class BellowsSessionStoreSuiteTest extends AbstractSessionBytesStoreTest {
    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(BellowsStores.sessionStore("session", Duration.ofMillis(retentionPeriod)),
                keySerde, valueSerde).build();
    }

    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStore;
    }
}
