package io.bellows.kafka;

import io.bellows.engine.EngineOptions;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;

/**
 * Supplies Bellows session stores to Kafka Streams ({@code Stores.sessionStoreBuilder},
 * {@code Materialized.as}). Made by {@link BellowsStores}; the segment interval is Kafka's
 * {@code max(retention / 2, 60 s)}.
 */
public final class BellowsSessionBytesStoreSupplier implements SessionBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final long segmentInterval;
    private final EngineOptions options;
    private final boolean withHeaders;

    BellowsSessionBytesStoreSupplier(String name, long retentionPeriod, EngineOptions options, boolean withHeaders) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = Math.max(retentionPeriod / 2, 60_000L);
        this.options = Objects.requireNonNull(options, "options cannot be null");
        this.withHeaders = withHeaders;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SessionStore<Bytes, byte[]> get() {
        return withHeaders ? new BellowsSessionStore.WithHeaders(name, retentionPeriod, segmentInterval, options)
                : new BellowsSessionStore(name, retentionPeriod, segmentInterval, options);
    }

    @Override
    public String metricsScope() {
        return "bellows-session";
    }

    @Override
    public long segmentIntervalMs() {
        return segmentInterval;
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
        return "BellowsSessionBytesStoreSupplier{name=" + name + ", retention=" + retentionPeriod + ", segmentInterval="
                + segmentInterval + ", withHeaders=" + withHeaders + "}";
    }
}
