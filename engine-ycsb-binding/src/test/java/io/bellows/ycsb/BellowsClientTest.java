package io.bellows.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The binding against the {@code site.ycsb.DB} contract, on a real engine. */
class BellowsClientTest {
    private static final String TABLE = "usertable";

    @TempDir
    Path tmp;

    private BellowsClient db;

    @BeforeEach
    void open() throws DBException {
        db = client(tmp.resolve("db"));
    }

    @AfterEach
    void close() throws DBException {
        db.cleanup();
        assertEquals(0, SharedEngines.clients(tmp.resolve("db")));
    }

    @Test
    void insertThenReadAllFields() {
        assertEquals(Status.OK, db.insert(TABLE, "user1", record("field0", "a", "field1", "bb", "field2", "")));
        Map<String, ByteIterator> result = new HashMap<>();
        assertEquals(Status.OK, db.read(TABLE, "user1", null, result));
        assertEquals(Map.of("field0", "a", "field1", "bb", "field2", ""), strings(result));
    }

    @Test
    void readSomeFields() {
        db.insert(TABLE, "user1", record("field0", "a", "field1", "b", "field2", "c"));
        Map<String, ByteIterator> result = new HashMap<>();
        assertEquals(Status.OK, db.read(TABLE, "user1", Set.of("field2", "field0"), result));
        assertEquals(Map.of("field0", "a", "field2", "c"), strings(result));
    }

    @Test
    void updateMergesTheGivenFieldsIntoTheRecord() {
        db.insert(TABLE, "user1", record("field0", "a", "field1", "b", "field2", "c"));
        assertEquals(Status.OK, db.update(TABLE, "user1", record("field1", "B", "field3", "d")));
        Map<String, ByteIterator> result = new HashMap<>();
        db.read(TABLE, "user1", null, result);
        assertEquals(Map.of("field0", "a", "field1", "B", "field2", "c", "field3", "d"), strings(result));
    }

    @Test
    void insertReplacesTheWholeRecord() {
        db.insert(TABLE, "user1", record("field0", "a", "field1", "b"));
        db.insert(TABLE, "user1", record("field1", "x"));
        Map<String, ByteIterator> result = new HashMap<>();
        db.read(TABLE, "user1", null, result);
        assertEquals(Map.of("field1", "x"), strings(result));
    }

    @Test
    void missingKeysAreNotFound() {
        db.insert(TABLE, "user1", record("field0", "a"));
        assertEquals(Status.NOT_FOUND, db.read(TABLE, "user2", null, new HashMap<>()));
        assertEquals(Status.NOT_FOUND, db.update(TABLE, "user2", record("field0", "b")));
        assertEquals(Status.NOT_FOUND, db.delete(TABLE, "user2"));
        assertEquals(Status.NOT_FOUND, db.read("othertable", "user1", null, new HashMap<>()));
        assertEquals(Status.NOT_FOUND, db.read(TABLE, "user2", null, new HashMap<>()), "a failed update must not create the record");
    }

    @Test
    void deleteRemovesTheRecord() {
        db.insert(TABLE, "user1", record("field0", "a"));
        assertEquals(Status.OK, db.delete(TABLE, "user1"));
        assertEquals(Status.NOT_FOUND, db.read(TABLE, "user1", null, new HashMap<>()));
        assertEquals(Status.NOT_FOUND, db.delete(TABLE, "user1"));
    }

    @Test
    void scanReadsRecordsInKeyOrderFromTheStartKeyWithinTheTable() {
        for (int i = 0; i < 50; i++) {
            db.insert(TABLE, String.format("user%03d", i), record("field0", "v" + i, "field1", "w" + i));
        }
        db.insert("usertable2", "user000", record("field0", "other table"));
        db.insert("usertabl", "user999", record("field0", "other table"));
        db.delete(TABLE, "user012");

        Vector<HashMap<String, ByteIterator>> result = new Vector<>();
        assertEquals(Status.OK, db.scan(TABLE, "user010", 5, null, result));
        assertEquals(List.of("v10", "v11", "v13", "v14", "v15"), field(result, "field0"));
        assertEquals(Set.of("field0", "field1"), result.get(0).keySet());

        result.clear();
        assertEquals(Status.OK, db.scan(TABLE, "user0455", 100, Set.of("field1"), result));
        assertEquals(List.of("w46", "w47", "w48", "w49"), field(result, "field1"));
        assertEquals(Set.of("field1"), result.get(0).keySet());

        result.clear();
        assertEquals(Status.OK, db.scan(TABLE, "user999", 10, null, result));
        assertTrue(result.isEmpty());
    }

    @Test
    void scanSurvivesFlushAndCompactionAndReopen() throws DBException {
        for (int i = 0; i < 300; i++) {
            db.insert(TABLE, String.format("user%04d", i), record("field0", "v" + i));
        }
        db.cleanup();
        try (Engine e = Engine.open(tmp.resolve("db"), EngineOptions.defaults())) {
            e.flush();
            e.compactRange(null, null);
        }
        db = client(tmp.resolve("db"));
        db.update(TABLE, "user0150", record("field1", "x"));
        Vector<HashMap<String, ByteIterator>> result = new Vector<>();
        assertEquals(Status.OK, db.scan(TABLE, "user0149", 3, null, result));
        assertEquals(List.of("v149", "v150", "v151"), field(result, "field0"));
        assertEquals("x", result.get(1).get("field1").toString());
    }

    @Test
    void badPropertiesFailInitWithTheKeyNamed() {
        BellowsClient bad = new BellowsClient();
        Properties p = new Properties();
        p.setProperty("bellows.dir", tmp.resolve("bad").toString());
        p.setProperty("bellows.memstore_size", "lots");
        bad.setProperties(p);
        DBException e = assertThrows(DBException.class, bad::init);
        assertTrue(e.getMessage().startsWith("bellows.memstore_size=lots is not a byte count"), e.getMessage());
        assertEquals(0, SharedEngines.clients(tmp.resolve("bad")));

        BellowsClient noDir = new BellowsClient();
        noDir.setProperties(new Properties());
        assertTrue(assertThrows(DBException.class, noDir::init).getMessage().startsWith("bellows.dir is required"));
    }

    @Test
    void aSecondClientWithOtherOptionsIsRefused() throws DBException {
        BellowsClient other = new BellowsClient();
        Properties p = new Properties();
        p.setProperty("bellows.dir", tmp.resolve("db").toString());
        p.setProperty("bellows.bloom_bits", "3");
        other.setProperties(p);
        DBException e = assertThrows(DBException.class, other::init);
        assertEquals("the Bellows store in " + tmp.resolve("db") + " is already open in this JVM with bellows.dir="
                + tmp.resolve("db") + " {bellows.memstore_size=256k}; this client asks for bellows.dir=" + tmp.resolve("db")
                + " {bellows.bloom_bits=3}", e.getMessage());
        assertEquals(1, SharedEngines.clients(tmp.resolve("db")));
    }

    @Test
    void clientThreadsShareOneEngineUntilTheLastLeaves() throws Exception {
        int threads = 4;
        int updatesPerThread = 300;
        Path dir = tmp.resolve("shared");
        BellowsClient[] clients = new BellowsClient[threads];
        for (int t = 0; t < threads; t++) {
            clients[t] = new BellowsClient();
            clients[t].setProperties(props(dir));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier phase = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    BellowsClient c = clients[id];
                    c.init();
                    c.insert(TABLE, "own" + id, record("field" + id, "seed"));
                    phase.await(30, TimeUnit.SECONDS);
                    if (id == 0) {
                        assertEquals(threads, SharedEngines.clients(dir));
                    }
                    // All threads update every record, each its own field: a lost update would drop a thread's
                    // last value of some record.
                    for (int i = 0; i < updatesPerThread; i++) {
                        assertEquals(Status.OK, c.update(TABLE, "own" + (i % threads), record("field" + id, "u" + i)));
                    }
                    phase.await(30, TimeUnit.SECONDS);
                    c.cleanup();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, SharedEngines.clients(dir));
        // Closed by the last cleanup: a plain open of the directory succeeds and sees every thread's last update.
        try (Engine e = Engine.open(dir, EngineOptions.defaults())) {
            for (int k = 0; k < threads; k++) {
                Map<String, ByteIterator> result = new HashMap<>();
                RecordCodec.decode(e.get(StoreKeys.of(TABLE, "own" + k)), null, result);
                Map<String, String> fields = strings(result);
                String last = "u" + lastUpdateOf(k, threads, updatesPerThread);
                for (int t = 0; t < threads; t++) {
                    assertEquals(last, fields.get("field" + t), "record own" + k + " field" + t + " in " + fields);
                }
            }
        }
    }

    @Test
    void engineIsReopenedAfterTheLastClientLeft() throws DBException {
        db.insert(TABLE, "k", record("f", "1"));
        db.cleanup();
        BellowsClient again = client(tmp.resolve("db"));
        try {
            Map<String, ByteIterator> result = new HashMap<>();
            assertEquals(Status.OK, again.read(TABLE, "k", null, result));
            assertEquals("1", result.get("f").toString());
        } finally {
            again.cleanup();
        }
        db = client(tmp.resolve("db"));
        BellowsClient second = client(tmp.resolve("db"));
        assertEquals(2, SharedEngines.clients(tmp.resolve("db")));
        second.cleanup();
        second.cleanup();
        assertEquals(1, SharedEngines.clients(tmp.resolve("db")), "a second cleanup of one client releases nothing");
    }

    @Test
    void distinctDirectoriesGetDistinctEngines() throws DBException {
        BellowsClient other = client(tmp.resolve("db2"));
        try {
            db.insert(TABLE, "k", record("f", "1"));
            assertEquals(Status.NOT_FOUND, other.read(TABLE, "k", null, new HashMap<>()));
            assertEquals(1, SharedEngines.clients(tmp.resolve("db2")));
        } finally {
            other.cleanup();
        }
        assertEquals(0, SharedEngines.clients(tmp.resolve("db2")));
    }

    /** Every thread's updates of record own{k} are those with i % threads == k, each writing "u" + i. */
    private static int lastUpdateOf(int k, int threads, int updatesPerThread) {
        int last = -1;
        for (int i = 0; i < updatesPerThread; i++) {
            if (i % threads == k) {
                last = i;
            }
        }
        return last;
    }

    private static BellowsClient client(Path dir) throws DBException {
        BellowsClient c = new BellowsClient();
        c.setProperties(props(dir));
        c.init();
        return c;
    }

    private static Properties props(Path dir) {
        Properties p = new Properties();
        p.setProperty("bellows.dir", dir.toString());
        p.setProperty("bellows.memstore_size", "256k");
        return p;
    }

    static Map<String, ByteIterator> record(String... kv) {
        Map<String, ByteIterator> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], new StringByteIterator(kv[i + 1]));
        }
        return m;
    }

    static Map<String, String> strings(Map<String, ByteIterator> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.toString()));
        return out;
    }

    private static List<String> field(List<HashMap<String, ByteIterator>> rows, String name) {
        List<String> out = new ArrayList<>();
        for (HashMap<String, ByteIterator> row : rows) {
            out.add(row.get(name).toString());
        }
        return out;
    }
}
