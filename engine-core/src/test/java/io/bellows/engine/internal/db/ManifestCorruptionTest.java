package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A damaged manifest fails the open with a CorruptionException naming it, whatever byte is damaged; only
 * an incomplete last record (a torn write, whose edit never took effect) is cut. Before the fix a flip in
 * the last record read as a torn tail: the store opened into an older state, with older values for
 * 130-166 keys and 550-556 deleted keys back (issue 21).
 */
class ManifestCorruptionTest {
    private static final Path DIR = Path.of("/db");

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i, int round) {
        return String.format("value%06d-%d-%s", i, round, "v".repeat(30)).getBytes();
    }

    @ParameterizedTest
    @EnumSource(CompactionStyle.class)
    void flippedByteAnywhereInTheManifestFailsTheOpen(CompactionStyle style) throws IOException {
        EngineOptions options = EngineConfigs.small(style, InMemoryCompaction.NONE).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        fill(options, fs);
        Path manifest = manifest(fs);
        byte[] original = fs.readAll(manifest);
        LogReader r = new LogReader(original, manifest, FileHeader.KIND_MANIFEST);
        while (r.next() != null) {
            // find the last record
        }
        int lastRecord = (int) r.lastRecordOffset();
        assertTrue(lastRecord > FileHeader.LENGTH, "the manifest holds more than its snapshot record");
        // Every byte of the last record (the case), and a stride through the rest of the file.
        int stride = Math.max(1, lastRecord / 400);
        int trials = 0;
        for (int at = 0; at < original.length; at += at >= lastRecord ? 1 : stride) {
            byte[] damaged = original.clone();
            damaged[at] ^= (byte) (1 << (at % 8));
            fs.overwrite(manifest, damaged);
            int offset = at;
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> EngineImpl.open(DIR, options, fs).close(), () -> "flip at " + offset + " of " + original.length);
            assertEquals(manifest, e.file(), e.getMessage());
            trials++;
        }
        assertTrue(trials > original.length - lastRecord);
        fs.overwrite(manifest, original);
        EngineImpl.open(DIR, options, fs).close();
    }

    /** CURRENT, every byte: the open fails naming it (it is written whole, by a rename, and never torn). */
    @Test
    void flippedByteAnywhereInCurrentFailsTheOpen() throws IOException {
        EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        fill(options, fs);
        Path current = DIR.resolve(FileNames.CURRENT);
        byte[] original = fs.readAll(current);
        for (int at = 0; at < original.length; at++) {
            for (int bit = 0; bit < 8; bit += 3) {
                byte[] damaged = original.clone();
                damaged[at] ^= (byte) (1 << bit);
                fs.overwrite(current, damaged);
                int offset = at;
                CorruptionException e = assertThrows(CorruptionException.class,
                        () -> EngineImpl.open(DIR, options, fs).close(), () -> "flip at " + offset);
                assertEquals(current, e.file(), e.getMessage());
            }
        }
        fs.overwrite(current, original);
        EngineImpl.open(DIR, options, fs).close();
    }

    /** An append a crash cut short (an edit that never took effect) is cut, and the store opens with everything. */
    @ParameterizedTest
    @EnumSource(CompactionStyle.class)
    void incompleteLastRecordIsCutAndTheStoreOpens(CompactionStyle style) throws IOException {
        EngineOptions options = EngineConfigs.small(style, InMemoryCompaction.NONE).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        TreeMap<Integer, byte[]> model = fill(options, fs);
        Path manifest = manifest(fs);
        byte[] original = fs.readAll(manifest);
        LogReader r = new LogReader(original, manifest, FileHeader.KIND_MANIFEST);
        while (r.next() != null) {
            // find the last record
        }
        int last = (int) r.lastRecordOffset();
        byte[] torn = Arrays.copyOf(original, original.length + (original.length - last) - 2);
        System.arraycopy(original, last, torn, original.length, original.length - last - 2);
        fs.overwrite(manifest, torn);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        try {
            for (int i = 0; i < 3000; i++) {
                if (model.containsKey(i)) {
                    assertArrayEquals(model.get(i), db.get(key(i)), "key " + i);
                } else {
                    assertNull(db.get(key(i)), "key " + i);
                }
            }
        } finally {
            db.close();
        }
    }

    /** Overwrites and deletes across flushes and a full compaction; returns what the store holds. */
    private static TreeMap<Integer, byte[]> fill(EngineOptions options, CrashableFileSystem fs) {
        TreeMap<Integer, byte[]> model = new TreeMap<>();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        try {
            for (int round = 0; round < 3; round++) {
                for (int i = round * 1000; i < 3000; i++) {
                    db.put(key(i), value(i, round));
                    model.put(i, value(i, round));
                }
                for (int i = round; i < 3000; i += 7) {
                    db.delete(key(i));
                    model.remove(i);
                }
                db.flush();
            }
            db.compactRange(null, null);
            for (int i = 0; i < 1000; i++) {
                db.put(key(i), value(i, 3));
                model.put(i, value(i, 3));
            }
            for (int i = 3; i < 3000; i += 7) {
                db.delete(key(i));
                model.remove(i);
            }
            db.flush();
        } finally {
            db.close();
        }
        return model;
    }

    private static Path manifest(CrashableFileSystem fs) throws IOException {
        for (String name : fs.list(DIR)) {
            if (name.startsWith(FileNames.MANIFEST_PREFIX)) {
                return DIR.resolve(name);
            }
        }
        throw new AssertionError("no manifest");
    }
}
