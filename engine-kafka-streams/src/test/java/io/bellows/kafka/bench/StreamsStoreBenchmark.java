package io.bellows.kafka.bench;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * Kafka's RocksDB store against Bellows stores under the same aggregation ({@link AggregationApp}),
 * each in its own child JVM against one single-node KRaft cluster started here on loopback. For every
 * store: records/s and the p99 of the per-record processing (store get and put), then the time to restore
 * the whole changelog into an empty state directory, and each phase's peak resident memory (VmHWM: heap,
 * direct and native). Command and options in docs/benchmarks.md. Options: --records=N (1000000),
 * --keys=N (records / 10), --value-bytes=N (100), --partitions=N (1), --heap=SIZE (1g),
 * --stores=rocksdb,bellows:LEVELED/NONE,... , --dir=PATH (a temporary directory). The environment variable
 * STREAMS_BENCH_CHILD_OPTS adds JVM options to the children (a profiler, say), "{phase}" in it replaced by
 * the child's phase ("process" or "restore").
 */
public final class StreamsStoreBenchmark {
    private StreamsStoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            opt.put(a.substring(2, eq), a.substring(eq + 1));
        }
        long records = Long.parseLong(opt.getOrDefault("records", "1000000"));
        long keys = Long.parseLong(opt.getOrDefault("keys", Long.toString(Math.max(1, records / 10))));
        int valueBytes = Integer.parseInt(opt.getOrDefault("value-bytes", "100"));
        int partitions = Integer.parseInt(opt.getOrDefault("partitions", "1"));
        String heap = opt.getOrDefault("heap", "1g");
        String[] stores = opt.getOrDefault("stores", "rocksdb,bellows:LEVELED/NONE").split(",");
        Path dir = opt.containsKey("dir") ? Path.of(opt.get("dir")) : Files.createTempDirectory("streams-bench");
        System.out.printf("records=%d keys=%d value-bytes=%d partitions=%d heap=%s dir=%s%n", records, keys, valueBytes,
                partitions, heap, dir);

        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
                .setBaseDirectory(dir.resolve("kafka")).build();
        try (KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build()) {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic(AggregationApp.INPUT, partitions, (short) 1))).all().get();
            }
            long t0 = System.nanoTime();
            produce(bootstrap, records, keys, valueBytes);
            System.out.printf("produced %d records in %.1f s%n", records, (System.nanoTime() - t0) / 1e9);

            List<String> rows = new ArrayList<>();
            rows.add(String.format("%-28s %12s %10s %12s %12s %14s %12s", "store", "records/s", "p99 us", "rss MiB",
                    "restore s", "restored rec", "rss MiB"));
            int run = 0;
            for (String store : stores) {
                String appId = "bench-" + run++;
                String process = child(dir, heap, bootstrap, dir.resolve("state-" + appId + "-p"), appId, store, records,
                        "process");
                String restore = child(dir, heap, bootstrap, dir.resolve("state-" + appId + "-r"), appId, store, records,
                        "restore");
                rows.add(String.format("%-28s %12s %10s %12s %12s %14s %12s", store, field(process, "records_per_s"),
                        field(process, "p99_us"), field(process, "rss_peak_mib"), field(restore, "seconds"),
                        field(restore, "records"), field(restore, "rss_peak_mib")));
            }
            rows.forEach(System.out::println);
        }
    }

    private static void produce(String bootstrap, long records, long keys, int valueBytes) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        SplittableRandom random = new SplittableRandom(42);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long i = 0; i < records; i++) {
                byte[] key = String.format("key-%012d", random.nextLong(keys)).getBytes(StandardCharsets.UTF_8);
                byte[] value = new byte[valueBytes];
                random.nextBytes(value);
                producer.send(new ProducerRecord<>(AggregationApp.INPUT, key, value));
            }
            producer.flush();
        }
    }

    private static String child(Path dir, String heap, String bootstrap, Path stateDir, String appId, String store,
            long records, String phase) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve(appId + "-" + phase + ".out");
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap));
        String opts = System.getenv("STREAMS_BENCH_CHILD_OPTS");
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.replace("{phase}", phase).trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), AggregationApp.class.getName(), bootstrap,
                stateDir.toString(), appId, store, Long.toString(records), phase));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectErrorStream(true);
        pb.redirectOutput(out.toFile());
        pb.directory(new File(System.getProperty("user.dir")));
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.HOURS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(store + " " + phase + " failed; see " + out);
        }
        for (String line : Files.readAllLines(out)) {
            if (line.startsWith("RESULT")) {
                System.out.println(store + " " + line);
                return line;
            }
        }
        throw new IllegalStateException(store + " " + phase + " printed no result; see " + out);
    }

    private static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return "?";
    }
}
