package io.bellows.kafka.bench;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.SharedCache;
import io.bellows.engine.WriteBufferManager;
import io.bellows.kafka.BellowsStores;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The application {@link StreamsStoreBenchmark} runs in a child JVM, once per store and phase: an
 * aggregation (per key, a count and the latest value) over one key-value store, Kafka's RocksDB store or
 * a Bellows one. Phase "process" consumes the input until {@code records} records were processed and
 * prints the throughput, the p99 of the processor's {@code process} call (the store get and put, no
 * punctuation) and the process's peak resident memory; phase "restore" starts on an empty state
 * directory and prints how long restoring the changelog took. Arguments: bootstrap, state dir, app id,
 * store spec, records, phase.
 */
public final class AggregationApp {
    static final String INPUT = "bench-input";
    static final String STORE = "agg";

    private AggregationApp() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String stateDir = args[1];
        String appId = args[2];
        String spec = args[3];
        long records = Long.parseLong(args[4]);
        boolean restorePhase = args[5].equals("restore");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);

        long[] latencies = new long[(int) Math.min(records, 2_000_000)];
        AtomicLong processed = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        long[] firstRecordNanos = {0};
        Topology topology = new Topology();
        topology.addSource("src", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(), INPUT);
        topology.addProcessor("agg", () -> new Processor<Bytes, byte[], Void, Void>() {
            private KeyValueStore<Bytes, byte[]> store;

            @Override
            public void init(ProcessorContext<Void, Void> context) {
                store = context.getStateStore(STORE);
            }

            @Override
            public void process(Record<Bytes, byte[]> record) {
                long start = System.nanoTime();
                byte[] old = store.get(record.key());
                long count = old == null ? 1 : ByteBuffer.wrap(old).getLong() + 1;
                byte[] value = Arrays.copyOf(record.value(), record.value().length);
                ByteBuffer.wrap(value).putLong(count);
                store.put(record.key(), value);
                long end = System.nanoTime();
                long n = processed.getAndIncrement();
                if (n == 0) {
                    firstRecordNanos[0] = start;
                }
                latencies[(int) (n % latencies.length)] = end - start;
                if (n + 1 == records) {
                    done.countDown();
                }
            }
        }, "src");
        topology.addStateStore(Stores.keyValueStoreBuilder(supplier(spec), Serdes.Bytes(), Serdes.ByteArray()), "agg");

        KafkaStreams streams = new KafkaStreams(topology, props);
        long[] restore = {Long.MAX_VALUE, 0, 0};
        CountDownLatch restored = new CountDownLatch(1);
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public synchronized void onRestoreStart(TopicPartition p, String store, long start, long end) {
                restore[0] = Math.min(restore[0], System.nanoTime());
            }

            @Override
            public void onBatchRestored(TopicPartition p, String store, long batchEnd, long n) {
            }

            @Override
            public synchronized void onRestoreEnd(TopicPartition p, String store, long total) {
                restore[1] = System.nanoTime();
                restore[2] += total;
            }
        });
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.start();
        running.await();
        if (restorePhase) {
            double seconds = restore[2] == 0 ? 0 : (restore[1] - restore[0]) / 1e9;
            System.out.printf("RESULT restore records=%d seconds=%.2f rss_peak_mib=%d%n", restore[2], seconds, peakRssMib());
        } else {
            done.await();
            double seconds = (System.nanoTime() - firstRecordNanos[0]) / 1e9;
            long[] sorted = Arrays.copyOf(latencies, (int) Math.min(records, latencies.length));
            Arrays.sort(sorted);
            System.out.printf("RESULT process records=%d seconds=%.2f records_per_s=%.0f p99_us=%.1f rss_peak_mib=%d%n",
                    records, seconds, records / seconds, sorted[(int) (sorted.length * 0.99)] / 1e3, peakRssMib());
        }
        streams.close();
        System.exit(0);
    }

    /**
     * "rocksdb", or "bellows:STYLE/POLICY[/LAYOUT]" on {@link BellowsStores#defaultOptions()}, optionally
     * followed by "+direct" (table reads with direct I/O instead of through the OS page cache),
     * "+cache=MiB" (block cache), "+memstore=MiB", "+threads=N" (background threads), "+active=F" and
     * "+segments=N" (the compacting MemStore's active segment fraction and pipeline segments) and "+budget=MiB"
     * (Kafka's bounded-memory recipe: one {@link SharedCache} and one {@link WriteBufferManager} of that
     * size each, shared by every store of the process, which is every task's store here).
     */
    static KeyValueBytesStoreSupplier supplier(String spec) {
        if (spec.equals("rocksdb")) {
            return Stores.persistentKeyValueStore(STORE);
        }
        String[] extras = spec.split("\\+");
        String[] parts = extras[0].substring("bellows:".length()).split("/");
        EngineOptions.Builder b = BellowsStores.defaultOptions().toBuilder()
                .compaction(CompactionStyle.valueOf(parts[0])).inMemoryCompaction(InMemoryCompaction.valueOf(parts[1]));
        if (parts.length > 2) {
            b.memoryLayout(MemoryLayout.valueOf(parts[2]));
        }
        for (int i = 1; i < extras.length; i++) {
            if (extras[i].equals("direct")) {
                b.directIo(true);
            } else if (extras[i].startsWith("cache=")) {
                b.blockCacheSize(Long.parseLong(extras[i].substring("cache=".length())) << 20);
            } else if (extras[i].startsWith("memstore=")) {
                b.memstoreSize(Long.parseLong(extras[i].substring("memstore=".length())) << 20);
            } else if (extras[i].startsWith("budget=")) {
                long bytes = Long.parseLong(extras[i].substring("budget=".length())) << 20;
                b.sharedCache(SharedCache.create(bytes)).writeBufferManager(WriteBufferManager.create(bytes));
            } else if (extras[i].startsWith("active=")) {
                b.activeSegmentFraction(Double.parseDouble(extras[i].substring("active=".length())));
            } else if (extras[i].startsWith("segments=")) {
                b.pipelineSegments(Integer.parseInt(extras[i].substring("segments=".length())));
            } else if (extras[i].startsWith("threads=")) {
                b.backgroundThreads(Integer.parseInt(extras[i].substring("threads=".length())));
            } else {
                throw new IllegalArgumentException("unknown store option " + extras[i] + " in " + spec);
            }
        }
        return BellowsStores.keyValueStore(STORE, b.build());
    }

    private static long peakRssMib() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
