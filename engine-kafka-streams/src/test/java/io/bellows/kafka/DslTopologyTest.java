package io.bellows.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DSL topologies on TopologyTestDriver with {@code dsl.store.suppliers.class} set to
 * {@link BellowsDslStoreSuppliers} and nothing else: every store lands in Bellows (no RocksDB directory
 * appears), the counts are right, and a windowed store's expired segments leave the disk.
 */
class DslTopologyTest {
    @TempDir
    Path stateDir;

    private Properties props(String app) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BellowsDslStoreSuppliers.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    /**
     * The directories called {@code name} under the state directory. The stores are open and compacting
     * meanwhile, so a file deleted during the walk is passed over, not a failure (a walk once met a
     * table deleted under it).
     */
    private Set<String> dirsNamed(String name) throws Exception {
        Set<String> out = new TreeSet<>();
        Files.walkFileTree(stateDir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (dir.getFileName() != null && dir.getFileName().toString().equals(name)) {
                    out.add(dir.toString());
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    @Test
    void wordCountRunsOnBellows() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
                .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("word-counts"))
                .toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        Map<String, Long> expected = new HashMap<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props("wordcount"))) {
            TestInputTopic<String, String> in = driver.createInputTopic("lines", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("counts", new StringDeserializer(),
                    new LongDeserializer());
            String[] text = {"the quick brown fox", "jumps over the lazy dog", "The dog barks", "the end"};
            for (int round = 0; round < 10; round++) {
                for (String line : text) {
                    in.pipeInput(null, line);
                    for (String w : line.toLowerCase().split("\\W+")) {
                        expected.merge(w, 1L, Long::sum);
                    }
                }
            }
            Map<String, Long> last = out.readKeyValuesToMap();
            assertEquals(expected, last);
            ReadOnlyKeyValueStore<String, ValueAndTimestamp<Long>> store = driver.getTimestampedKeyValueStore("word-counts");
            assertEquals(Long.valueOf(40), store.get("the").value());
            try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = store.range("brown", "dog")) {
                assertEquals(List.of("brown", "dog"), keys(it));
            }
            try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = store.reverseRange("brown", "dog")) {
                assertEquals(List.of("dog", "brown"), keys(it));
            }
            // An estimate, as RocksDB's store gives: at least the distinct words, at most every update the
            // store received (versions not yet compacted away count).
            long updates = expected.values().stream().mapToLong(Long::longValue).sum();
            long approx = store.approximateNumEntries();
            assertTrue(approx >= expected.size() && approx <= updates, "estimate " + approx);
            assertEquals(1, dirsNamed("word-counts").size(), "one Bellows store directory: " + dirsNamed("word-counts"));
            assertTrue(dirsNamed("word-counts").iterator().next().contains(File.separator + "bellows" + File.separator));
            assertTrue(dirsNamed("rocksdb").isEmpty(), "no RocksDB store was made");
        }
    }

    private static <V> List<String> keys(KeyValueIterator<String, V> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(kv -> out.add(kv.key));
        return out;
    }

    @Test
    void windowedCountRunsOnBellowsAndDropsExpiredSegments() throws Exception {
        Duration size = Duration.ofMinutes(1);
        Duration retention = Duration.ofMinutes(3);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(size))
                .count(Materialized.<String, Long, WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("clicks-per-minute")
                        .withRetention(retention))
                .toStream((w, v) -> w.key() + "@" + w.window().start())
                .to("per-minute", Produced.with(Serdes.String(), Serdes.Long()));
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props("windowed"))) {
            TestInputTopic<String, String> in = driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("per-minute", new StringDeserializer(),
                    new LongDeserializer());
            Instant t0 = Instant.ofEpochMilli(0);
            Map<String, Long> expected = new HashMap<>();
            for (int minute = 0; minute < 10; minute++) {
                for (int i = 0; i <= minute; i++) {
                    String user = "user" + (i % 3);
                    in.pipeInput(user, "click", t0.plus(Duration.ofMinutes(minute)).plusSeconds(i));
                    expected.merge(user + "@" + minute * 60_000L, 1L, Long::sum);
                }
            }
            assertEquals(expected, out.readKeyValuesToMap());

            WindowStore<String, ValueAndTimestamp<Long>> store = driver.getTimestampedWindowStore("clicks-per-minute");
            try (KeyValueIterator<Long, ValueAndTimestamp<Long>> it = store.fetch("user0",
                    t0.plus(Duration.ofMinutes(7)), t0.plus(Duration.ofMinutes(9)))) {
                List<KeyValue<Long, Long>> got = new java.util.ArrayList<>();
                it.forEachRemaining(kv -> got.add(KeyValue.pair(kv.key, kv.value.value())));
                assertEquals(List.of(KeyValue.pair(420_000L, 3L), KeyValue.pair(480_000L, 3L), KeyValue.pair(540_000L, 4L)), got);
            }
            try (KeyValueIterator<Long, ValueAndTimestamp<Long>> it = store.backwardFetch("user0",
                    t0.plus(Duration.ofMinutes(8)), t0.plus(Duration.ofMinutes(9)))) {
                assertEquals(540_000L, it.next().key);
                assertEquals(480_000L, it.next().key);
                assertFalse(it.hasNext());
            }
            try (KeyValueIterator<Windowed<String>, ValueAndTimestamp<Long>> it = store.fetchAll(
                    t0.plus(Duration.ofMinutes(9)), t0.plus(Duration.ofMinutes(9)))) {
                List<String> got = new java.util.ArrayList<>();
                it.forEachRemaining(kv -> got.add(kv.key.key() + "=" + kv.value.value() + "/" + kv.key.window().end()));
                assertEquals(List.of("user0=4/600000", "user1=3/600000", "user2=3/600000"), got);
            }
            try (KeyValueIterator<Long, ValueAndTimestamp<Long>> it = store.fetch("user0", t0, t0.plus(Duration.ofMinutes(5)))) {
                assertFalse(it.hasNext(), "windows older than the retention period are gone");
            }
            Path storeDir = Path.of(dirsNamed("clicks-per-minute").iterator().next());
            assertTrue(storeDir.toString().contains(File.separator + "bellows" + File.separator));
            Set<String> segments;
            try (Stream<Path> s = Files.list(storeDir)) {
                segments = s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            }
            // Segments span max(retention / 2, 60 s) = 90 s; stream time 540 s is in segment 6, and the
            // oldest live one holds 540 - 180 = 360 s: segment 4. Segments 0 to 3 were deleted.
            assertEquals(Set.of("4", "5", "6"), segments);
        }
    }

    @Test
    void sessionCountRunsOnBellows() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("events", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(10)))
                .count(Materialized.as("sessions"))
                .toStream((w, v) -> w.key() + "@" + w.window().start() + "-" + w.window().end())
                .filter((k, v) -> v != null)
                .to("session-counts", Produced.with(Serdes.String(), Serdes.Long()));
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props("session-app"))) {
            TestInputTopic<String, String> in = driver.createInputTopic("events", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("session-counts", new StringDeserializer(),
                    new LongDeserializer());
            long[] times = {0, 5_000, 9_000, 30_000, 35_000, 100_000};
            for (long t : times) {
                in.pipeInput("k", "e", t);
            }
            Map<String, Long> got = out.readKeyValuesToMap();
            assertEquals(Long.valueOf(3), got.get("k@0-9000"));
            assertEquals(Long.valueOf(2), got.get("k@30000-35000"));
            assertEquals(Long.valueOf(1), got.get("k@100000-100000"));
            assertEquals(1, dirsNamed("sessions").size());
            assertTrue(dirsNamed("rocksdb").isEmpty());
        }
    }

    @Test
    void emitOnWindowCloseRunsOnBellows() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1)))
                .emitStrategy(EmitStrategy.onWindowClose())
                .count(Materialized.as("final-counts"))
                .toStream((w, v) -> w.key() + "@" + w.window().start())
                .to("final", Produced.with(Serdes.String(), Serdes.Long()));
        Properties props = props("emit-final");
        // Final results are looked for at most once per this wall-clock interval, and the driver's clock stands still.
        props.put("__emit.interval.ms.kstreams.windowed.aggregation__", 0L);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, String> in = driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("final", new StringDeserializer(),
                    new LongDeserializer());
            for (int i = 0; i < 5; i++) {
                in.pipeInput("u", "c", Instant.ofEpochMilli(i * 10_000L));
            }
            assertTrue(out.isEmpty(), "the first window is still open");
            in.pipeInput("u", "c", Instant.ofEpochMilli(61_000L));
            assertEquals(List.of(KeyValue.pair("u@0", 5L)), out.readKeyValuesToList());
            in.pipeInput("u", "c", Instant.ofEpochMilli(125_000L));
            assertEquals(List.of(KeyValue.pair("u@60000", 1L)), out.readKeyValuesToList());
            assertEquals(1, dirsNamed("final-counts").size());
            assertTrue(dirsNamed("rocksdb").isEmpty());
        }
    }
}
