/**
 * The OFF_HEAP memory layout: off-heap MSLAB and serialized segments on netty-buffer chunks, plugged
 * into engine-core through its segment-layout SPI.
 */
module io.bellows.engine.offheap {
    requires io.bellows.engine;
    requires io.netty.buffer;
    requires io.netty.common;

    provides io.bellows.engine.internal.memstore.spi.SegmentLayoutProvider
            with io.bellows.engine.offheap.OffHeapLayoutProvider;
}
