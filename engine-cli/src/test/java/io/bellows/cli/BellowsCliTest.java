package io.bellows.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every subcommand on real stores: what it prints, its exit status, and damage found where it was put. */
class BellowsCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** One run: exit status, standard output, standard error. */
    private record Run(int status, String out, String err) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }
    }

    private static Run cli(Object... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] a = Stream.of(args).map(String::valueOf).toArray(String[]::new);
        int status = BellowsCli.run(new PrintWriter(out, true), new PrintWriter(err, true), a);
        return new Run(status, out.toString(), err.toString());
    }

    /** A closed store of 2,000 keys in tables (flushed and compacted) and 100 more only in the WAL. */
    private Path store(CompactionStyle style) {
        Path dir = tmp.resolve(style.name());
        try (Engine db = Engine.open(dir, EngineOptions.builder().compaction(style).memstoreSize(256 << 10).build())) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), ("value-" + i).getBytes());
            }
            db.compactRange(null, null);
            db.delete(key(7));
            for (int i = 2000; i < 2100; i++) {
                db.put(key(i), ("value-" + i).getBytes());
            }
        }
        return dir;
    }

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x40));
            ch.write(b.flip(), offset);
        }
    }

    @Test
    void infoShowsTheSchemeLevelsAndLogs() throws IOException {
        Path dir = store(CompactionStyle.LEVELED);
        Run r = cli("info", dir, "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode info = r.json();
        assertEquals("LEVELED", info.get("scheme").asText());
        long tables = 0;
        for (JsonNode l : info.get("levels")) {
            tables += l.get("tables").asLong();
        }
        assertTrue(tables > 0, r.out());
        assertEquals(files(dir, ".sst").size(), tables);
        assertTrue(info.get("logs").size() >= 1, r.out());
        assertTrue(info.get("formats").has("sstable v" + info.get("formats").fieldNames().next().split(" v")[1]));
        Run text = cli("info", dir);
        assertEquals(0, text.status());
        assertTrue(text.out().contains("scheme     LEVELED"), text.out());
    }

    @Test
    void verifyPassesACleanStoreAndNamesEachDamagedFile() throws IOException {
        Path dir = store(CompactionStyle.LEVELED);
        Run clean = cli("verify", dir, "--json");
        assertEquals(0, clean.status(), clean.out() + clean.err());
        assertTrue(clean.json().get("clean").asBoolean());
        assertEquals(files(dir, ".sst").size(), clean.json().get("tables").asInt());

        Path table = files(dir, ".sst").get(0);
        flipByte(table, 40);
        Run damaged = cli("verify", dir);
        assertEquals(1, damaged.status(), damaged.out());
        assertTrue(damaged.out().contains("DAMAGED " + table), damaged.out());

        Path other = tmp.resolve("other");
        Files.move(store(CompactionStyle.FLSM), other);
        Path gone = files(other, ".sst").get(0);
        Files.delete(gone);
        Run missing = cli("verify", other);
        assertEquals(1, missing.status(), missing.out());
        assertTrue(missing.out().contains(gone + " at offset 0: missing"), missing.out());
    }

    @Test
    void verifyFindsADamagedWalRecordButOnlyNotesATornTail() throws IOException {
        Path dir = store(CompactionStyle.LEVELED);
        Path log = files(dir, ".log").get(files(dir, ".log").size() - 1);
        long size = Files.size(log);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3);
        }
        Run torn = cli("verify", dir);
        assertEquals(0, torn.status(), torn.out());
        assertTrue(torn.out().contains("note    " + log + ": an incomplete last record"), torn.out());

        flipByte(log, size / 2);
        Run damaged = cli("verify", dir, "--json");
        assertEquals(1, damaged.status(), damaged.out());
        assertEquals(log.toString(), damaged.json().get("problems").get(0).get("file").asText());
        Run dump = cli("dump-wal", log);
        assertEquals(1, dump.status(), dump.out());
        assertTrue(dump.out().contains("DAMAGED " + log), dump.out());
    }

    @Test
    void dumpsTablesOfBothFormatsTheManifestAndTheWal() throws IOException {
        Path dir = store(CompactionStyle.LEVELED);
        Run table = cli("dump-table", files(dir, ".sst").get(0), "--limit", 3, "--json");
        assertEquals(0, table.status(), table.err());
        JsonNode t = table.json();
        assertEquals("sstable", t.get("properties").get("format").asText());
        assertEquals(3, t.get("entries").size());
        assertTrue(t.get("truncated").asBoolean());
        assertTrue(t.get("entries").get(0).get("key").asText().startsWith("key"), table.out());
        Run ranged = cli("dump-table", files(dir, ".sst").get(0), "--from", "key000010", "--to", "key000012");
        assertEquals(0, ranged.status());
        assertTrue(ranged.out().contains("key000010 @") && ranged.out().contains("key000012 @")
                && !ranged.out().contains("key000013 @"), ranged.out());

        Path trie = store(CompactionStyle.LSM_TRIE);
        Run htable = cli("dump-table", files(trie, ".sst").get(0), "--properties-only", "--json");
        assertEquals(0, htable.status(), htable.err());
        assertEquals("htable", htable.json().get("properties").get("format").asText());
        assertEquals(Math.min(256, htable.json().get("properties").get("buckets").asInt()),
                htable.json().get("properties").get("window").asInt(), "a table of this store's balancing window");
        assertEquals(0, cli("verify", trie).status());

        Run manifest = cli("dump-manifest", dir, "--json");
        assertEquals(0, manifest.status(), manifest.err());
        assertEquals("LEVELED", manifest.json().get("edits").get(0).get("scheme").asText());

        Path log = files(dir, ".log").get(files(dir, ".log").size() - 1);
        Run wal = cli("dump-wal", log, "--ops", "--json");
        assertEquals(0, wal.status(), wal.err());
        // The delete of key000007, then the 100 puts.
        assertEquals(101, wal.json().get("operations").asLong());
        assertEquals("delete", wal.json().get("ops").get(0).get("kind").asText());
        assertEquals("key002099", wal.json().get("ops").get(100).get("key").asText());
    }

    @Test
    void verifyReadsTheLogsACLTableReadsAndFindsThemDamaged() throws IOException {
        Path dir = tmp.resolve("triad");
        try (Engine db = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.TRIAD).build())) {
            for (int i = 0; i < 500; i++) {
                db.put(key(i), ("value-" + i).getBytes());
            }
            db.flush();
            for (int i = 500; i < 550; i++) {
                db.put(key(i), ("value-" + i).getBytes());
            }
        }
        Run info = cli("info", dir, "--json");
        assertEquals(0, info.status(), info.err());
        assertTrue(info.json().get("formats").fieldNames().next().startsWith("cl-table v"), info.out());
        Run clean = cli("verify", dir, "--json");
        assertEquals(0, clean.status(), clean.out());
        assertTrue(clean.json().get("extra").isEmpty(), "a log a CL-table reads is live, not extra: " + clean.out());
        assertTrue(clean.json().get("logs").asInt() >= 2, clean.out());

        Path indexedLog = files(dir, ".log").get(0);
        flipByte(indexedLog, Files.size(indexedLog) / 2);
        Run damaged = cli("verify", dir);
        assertEquals(1, damaged.status(), damaged.out());
        assertTrue(damaged.out().contains("DAMAGED "), damaged.out());
    }

    @Test
    void getScanAndCompactGoThroughTheEngineAndAStoreInUseIsRefused() throws IOException {
        Path dir = store(CompactionStyle.FLSM);
        Run get = cli("get", dir, "key000042");
        assertEquals(0, get.status(), get.err());
        assertEquals("value-42", get.out().trim());
        assertEquals(1, cli("get", dir, "key000007").status());
        Run scan = cli("scan", dir, "--from", "key000005", "--to", "key000009", "--json");
        assertEquals(0, scan.status(), scan.err());
        assertEquals(4, scan.json().get("entries").size(), scan.out());
        Run reverse = cli("scan", dir, "--to", "key000009", "--limit", 3, "--reverse");
        assertEquals(0, reverse.status(), reverse.err());
        assertEquals(List.of("key000009 = value-9", "key000008 = value-8", "key000006 = value-6"),
                reverse.out().lines().limit(3).toList(), reverse.out());
        Path copy = tmp.resolve("copy");
        Run checkpoint = cli("checkpoint", dir, copy);
        assertEquals(0, checkpoint.status(), checkpoint.err());
        assertEquals("value-42", cli("get", copy, "key000042").out().trim());
        assertEquals(0, cli("verify", copy).status());
        assertEquals(1, cli("checkpoint", dir, copy).status(), "an existing target is refused");
        Run compact = cli("compact", dir, "--json");
        assertEquals(0, compact.status(), compact.err());
        assertEquals(0, cli("verify", dir).status());

        try (Engine open = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.FLSM).build())) {
            for (String command : List.of("info", "verify", "get")) {
                Run refused = command.equals("get") ? cli(command, dir, "key000001") : cli(command, dir);
                assertEquals(1, refused.status(), command);
                assertTrue(refused.err().contains("already in use by another Bellows engine"), refused.err());
            }
        }
        Run notAStore = cli("info", tmp);
        assertEquals(1, notAStore.status());
        assertTrue(notAStore.err().contains("holds no Bellows store"), notAStore.err());
    }
}
