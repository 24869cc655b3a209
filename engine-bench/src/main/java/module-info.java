/**
 * bellows-bench (db_bench-style and YCSB-style workloads on Bellows and RocksDB, charts) and the JMH
 * micro-benchmarks, which measure some engine internals directly (exported to this module only).
 */
module io.bellows.bench {
    requires io.bellows.engine;
    // TableBuilder's reusable key-hash list, in CompactionMergeBenchmark.
    requires com.carrotsearch.hppc;
    requires io.netty.common;
    requires java.management;
    requires jdk.management;
    requires jmh.core;
    requires rocksdbjni;
    requires HdrHistogram;
    requires org.knowm.xchart;
    requires java.desktop;
    // The codecs of SSTable blocks, measured directly by BlockCompressionBenchmark.
    requires aircompressor;
    requires com.fasterxml.jackson.databind;
    requires info.picocli;

    opens io.bellows.bench.jmh to jmh.core;
}
