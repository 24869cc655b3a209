/**
 * JMH micro-benchmarks of the engine's hot paths: MemStore insert and get per in-memory policy and memory layout,
 * bloom filter probes, block decoding, the merging iterator and WAL appends. Built into
 * {@code engine-bench/target/benchmarks.jar}; run {@code java -jar engine-bench/target/benchmarks.jar -h}.
 */
package io.bellows.bench.jmh;
