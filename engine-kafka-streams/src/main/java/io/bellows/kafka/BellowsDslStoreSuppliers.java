package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Puts every store of a DSL application on Bellows with one line of configuration:
 * {@code props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BellowsDslStoreSuppliers.class)}.
 * Key-value, window and session stores are made in the format the DSL asks for (plain, timestamped or
 * with headers), with {@link BellowsStores#defaultOptions()} as adjusted by a {@link BellowsConfigSetter}.
 *
 * <p>Window stores of emit-on-window-close aggregations are Bellows window stores too, keeping windows
 * as long as Kafka's time-ordered store does; Kafka's RocksDB suppliers index them by time there, which
 * only changes how fast closed windows are found.
 */
public class BellowsDslStoreSuppliers implements DslStoreSuppliers {
    private final EngineOptions options = BellowsStores.defaultOptions();

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        switch (StoreFormat.of(params.dslStoreFormat(), params.isTimestamped() ? StoreFormat.TIMESTAMPED : StoreFormat.PLAIN)) {
            case HEADERS:
                return BellowsStores.timestampedKeyValueStoreWithHeaders(params.name(), options);
            case TIMESTAMPED:
                return BellowsStores.timestampedKeyValueStore(params.name(), options);
            default:
                return BellowsStores.keyValueStore(params.name(), options);
        }
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        StoreFormat format = StoreFormat.of(params.dslStoreFormat(),
                params.isTimestamped() ? StoreFormat.TIMESTAMPED : StoreFormat.PLAIN);
        boolean onWindowClose = params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE;
        return new BellowsWindowBytesStoreSupplier(params.name(), BellowsStores.millis(params.retentionPeriod(), "retentionPeriod"),
                BellowsStores.millis(params.windowSize(), "windowSize"), params.retainDuplicates(), options, format,
                onWindowClose);
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        if (params.storeFormat() == DslStoreFormat.HEADERS) {
            return BellowsStores.sessionStoreWithHeaders(params.name(), params.retentionPeriod(), options);
        }
        return BellowsStores.sessionStore(params.name(), params.retentionPeriod(), options);
    }
}
