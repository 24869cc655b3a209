package org.apache.kafka.streams.state.internals;

import io.bellows.kafka.BellowsStores;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Kafka's own window store suite (AbstractWindowBytesStoreTest from the kafka-streams test jar, the one
 * RocksDBWindowStoreTest extends) run against Bellows' window store. It lives in Kafka's package because
 * the suite's factory method is package-private.
 */
class BellowsWindowStoreSuiteTest extends AbstractWindowBytesStoreTest {
    @Override
    <K, V> WindowStore<K, V> buildWindowStore(long retentionPeriod, long windowSize, boolean retainDuplicates,
            Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.windowStoreBuilder(BellowsStores.windowStore("window", Duration.ofMillis(retentionPeriod),
                Duration.ofMillis(windowSize), retainDuplicates), keySerde, valueSerde).build();
    }
}
