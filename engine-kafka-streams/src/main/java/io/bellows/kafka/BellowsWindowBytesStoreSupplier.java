package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Supplies Bellows window stores to Kafka Streams ({@code Stores.windowStoreBuilder},
 * {@code Materialized.as}). Made by {@link BellowsStores}; the segment interval is Kafka's
 * {@code max(retention / 2, 60 s)}, so about three segments (engines) are open per store and task.
 */
public final class BellowsWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final long segmentInterval;
    private final long windowSize;
    private final boolean retainDuplicates;
    private final EngineOptions options;
    private final StoreFormat format;
    private final boolean emitOnWindowClose;

    BellowsWindowBytesStoreSupplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates,
            EngineOptions options, StoreFormat format, boolean emitOnWindowClose) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (windowSize > retentionPeriod) {
            throw new IllegalArgumentException("The retention period of the window store " + name
                    + " must be no smaller than its window size. Got size=[" + windowSize + "], retention=["
                    + retentionPeriod + "]");
        }
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = Math.max(retentionPeriod / 2, 60_000L);
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
        this.options = Objects.requireNonNull(options, "options cannot be null");
        this.format = format;
        this.emitOnWindowClose = emitOnWindowClose;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public WindowStore<Bytes, byte[]> get() {
        switch (format) {
            case TIMESTAMPED:
                return new BellowsWindowStore.Timestamped(name, retentionPeriod, segmentInterval, windowSize,
                        retainDuplicates, options, emitOnWindowClose);
            case HEADERS:
                return new BellowsWindowStore.WithHeaders(name, retentionPeriod, segmentInterval, windowSize,
                        retainDuplicates, options, emitOnWindowClose);
            default:
                return new BellowsWindowStore(name, retentionPeriod, segmentInterval, windowSize, retainDuplicates, options,
                        emitOnWindowClose);
        }
    }

    @Override
    public String metricsScope() {
        return "bellows-window";
    }

    @Override
    public long segmentIntervalMs() {
        return segmentInterval;
    }

    @Override
    public long windowSize() {
        return windowSize;
    }

    @Override
    public boolean retainDuplicates() {
        return retainDuplicates;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }

    /** The options each segment's engine opens with, before the application's {@link BellowsConfigSetter}. */
    public EngineOptions options() {
        return options;
    }

    @Override
    public String toString() {
        return "BellowsWindowBytesStoreSupplier{name=" + name + ", retention=" + retentionPeriod + ", segmentInterval="
                + segmentInterval + ", windowSize=" + windowSize + ", retainDuplicates=" + retainDuplicates + ", format="
                + format + "}";
    }
}
