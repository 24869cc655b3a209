package io.bellows.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against a real single-node KRaft cluster (broker and controller in this JVM, on loopback):
 * {@link CountingApp} counts {@value #RECORDS} records per key with exactly_once_v2 on Bellows stores in a
 * child JVM, is killed (destroyForcibly, no clean close) partway, and is started again. Kafka then wipes the
 * half-written store and restores it from the changelog through the store's batch restore; the committed
 * output must hold, for every key, exactly the counts 1, 2, ..., n once each and in order.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ExactlyOnceCrashTest {
    private static final int RECORDS = 10_000;
    private static final int KEYS = 50;
    private static final int PARTITIONS = 2;

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("try") // KafkaClusterTestKit.close() may throw InterruptedException; the test lets it.
    void countsStayExactAcrossAKilledApplication() throws Exception {
        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
                .setBaseDirectory(tmp.resolve("kafka")).build();
        try (KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")
                .build()) {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic(CountingApp.INPUT, PARTITIONS, (short) 1),
                        new NewTopic(CountingApp.OUTPUT, PARTITIONS, (short) 1))).all().get();
            }
            produceInput(bootstrap);
            Path stateDir = tmp.resolve("state");
            Map<String, List<Long>> counts = new HashMap<>();
            int beforeKill;
            try (KafkaConsumer<String, Long> output = outputConsumer(bootstrap)) {
                Process first = start(bootstrap, stateDir, 1, "first");
                try {
                    beforeKill = readUntil(output, counts, RECORDS / 5, first);
                    assertTrue(beforeKill < RECORDS, "the first run must be killed partway, yet it committed all");
                } finally {
                    first.destroyForcibly().waitFor();
                }
                Path store = stateDir.resolve(CountingApp.APP_ID).resolve("0_0").resolve("bellows").resolve(CountingApp.STORE);
                assertTrue(Files.isDirectory(store), "the first run kept its counts in Bellows at " + store);

                Process second = start(bootstrap, stateDir, 0, "second");
                try {
                    readUntil(output, counts, RECORDS, second);
                } finally {
                    second.destroyForcibly().waitFor();
                }
            }
            assertEquals(KEYS, counts.size());
            for (Map.Entry<String, List<Long>> e : counts.entrySet()) {
                List<Long> expected = new ArrayList<>();
                for (long c = 1; c <= RECORDS / KEYS; c++) {
                    expected.add(c);
                }
                assertEquals(expected, e.getValue(), "committed counts of " + e.getKey());
            }
            long restored = 0;
            for (String line : Files.readAllLines(tmp.resolve("second.out"), StandardCharsets.UTF_8)) {
                if (line.startsWith("RESTORED " + CountingApp.STORE + " ")) {
                    restored += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            System.out.printf("ExactlyOnceCrashTest: %d of %d outputs committed when the first run was killed; "
                    + "the second run restored %d changelog records%n", beforeKill, RECORDS, restored);
            assertTrue(restored > 0, "the second run restored its store from the changelog");
        }
    }

    private static void produceInput(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(CountingApp.INPUT, "key-" + (i % KEYS), "v" + i));
            }
            producer.flush();
        }
    }

    private static KafkaConsumer<String, Long> outputConsumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<String, Long> c = new KafkaConsumer<>(p, new StringDeserializer(), new LongDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            parts.add(new TopicPartition(CountingApp.OUTPUT, i));
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        return c;
    }

    /** Reads committed output into {@code counts} until {@code total} records were read; returns how many. */
    private int readUntil(KafkaConsumer<String, Long> output, Map<String, List<Long>> counts, int total, Process app)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        int seen = counts.values().stream().mapToInt(List::size).sum();
        while (seen < total) {
            if (System.nanoTime() > deadline || !app.isAlive()) {
                throw new AssertionError("read " + seen + " of " + total + " committed outputs; app alive: " + app.isAlive()
                        + "\n" + Files.readString(tmp.resolve("first.err")) + (Files.exists(tmp.resolve("second.err"))
                        ? Files.readString(tmp.resolve("second.err")) : ""));
            }
            for (ConsumerRecord<String, Long> r : output.poll(Duration.ofMillis(200))) {
                counts.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
                seen++;
            }
        }
        return seen;
    }

    private Process start(String bootstrap, Path stateDir, long sleepPerRecord, String name) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CountingApp.class.getName(), bootstrap, stateDir.toString(), Long.toString(sleepPerRecord));
        pb.redirectOutput(tmp.resolve(name + ".out").toFile());
        pb.redirectError(tmp.resolve(name + ".err").toFile());
        pb.directory(new File(System.getProperty("user.dir")));
        return pb.start();
    }
}
