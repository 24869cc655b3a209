package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies Bellows key-value stores to Kafka Streams, e.g.
 * {@code Stores.keyValueStoreBuilder(BellowsStores.keyValueStore("counts"), keySerde, valueSerde)} or
 * {@code Materialized.as(BellowsStores.timestampedKeyValueStore("counts"))}. Made by {@link BellowsStores}.
 */
public class BellowsKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
    private final String name;
    private final EngineOptions options;
    private final StoreFormat format;

    BellowsKeyValueBytesStoreSupplier(String name, EngineOptions options, StoreFormat format) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.options = Objects.requireNonNull(options, "options cannot be null");
        this.format = format;
    }

    /** A supplier of stores in Kafka's headers format; Kafka's builders recognise it by its interface. */
    static final class WithHeaders extends BellowsKeyValueBytesStoreSupplier implements HeadersBytesStoreSupplier {
        WithHeaders(String name, EngineOptions options) {
            super(name, options, StoreFormat.HEADERS);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The options each store's engine opens with, before the application's {@link BellowsConfigSetter}. */
    public EngineOptions options() {
        return options;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        switch (format) {
            case TIMESTAMPED:
                return new BellowsKeyValueStore.Timestamped(name, options);
            case HEADERS:
                return new BellowsKeyValueStore.WithHeaders(name, options);
            default:
                return new BellowsKeyValueStore(name, options);
        }
    }

    @Override
    public String metricsScope() {
        return "bellows";
    }

    @Override
    public String toString() {
        return "BellowsKeyValueBytesStoreSupplier{name=" + name + ", format=" + format + ", options=" + options + "}";
    }
}
