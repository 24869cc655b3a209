package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.MemoryLayout;

/**
 * A memory layout implemented outside engine-core, found with {@link java.util.ServiceLoader}: the
 * engine-offheap module registers the OFF_HEAP layout this way, so engine-core needs no netty.
 */
public interface SegmentLayoutProvider {
    /** The layout this provider makes. */
    MemoryLayout layout();

    /**
     * A layout for one MemStore of an engine opened with {@code options}.
     *
     * @param policyCompacts whether the in-memory policy builds immutable segments (anything but NONE)
     */
    SegmentLayout create(EngineOptions options, boolean policyCompacts);
}
