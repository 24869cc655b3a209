/**
 * Bellows engine core. The API is {@code io.bellows.engine} and nothing else; everything under
 * {@code io.bellows.engine.internal} is hidden, except the memory-layout SPI (and the key and iterator
 * types its signatures use) for engine-offheap, and the internals the JMH micro-benchmarks measure
 * directly and the readers the CLI inspects stores with, each exported only to the module that needs it.
 */
module io.bellows.engine {
    requires transitive micrometer.core;
    requires org.slf4j;
    requires com.google.common;
    requires com.github.benmanes.caffeine;
    requires com.carrotsearch.hppc;
    requires zero.allocation.hashing;
    // HyperLogLog sketches of TRIAD's L0 and L1 tables (an automatic module: the jar names no module).
    requires datasketches.java;
    // LZ4 and Zstandard for SSTable data blocks (an automatic module).
    requires aircompressor;
    // ExtendedOpenOption.DIRECT for direct I/O on tables.
    requires jdk.unsupported;
    // The process's file descriptor limit, which bounds the table files kept open (OpenChannels).
    requires jdk.management;

    exports io.bellows.engine;

    exports io.bellows.engine.internal.memstore.spi to io.bellows.engine.offheap;
    exports io.bellows.engine.internal.key to io.bellows.engine.offheap, io.bellows.bench, io.bellows.cli;
    exports io.bellows.engine.internal.iter to io.bellows.engine.offheap, io.bellows.bench, io.bellows.cli;
    exports io.bellows.engine.internal.memstore to io.bellows.bench;
    exports io.bellows.engine.internal.table to io.bellows.bench, io.bellows.cli;
    exports io.bellows.engine.internal.table.htable to io.bellows.bench;
    exports io.bellows.engine.internal.metrics to io.bellows.bench;
    exports io.bellows.engine.internal.wal to io.bellows.bench, io.bellows.cli;
    exports io.bellows.engine.internal.io to io.bellows.bench, io.bellows.cli;
    exports io.bellows.engine.internal.inspect to io.bellows.cli;
    exports io.bellows.engine.internal.trace to io.bellows.bench;
    exports io.bellows.engine.internal.version to io.bellows.cli;

    uses io.bellows.engine.internal.memstore.spi.SegmentLayoutProvider;
}
