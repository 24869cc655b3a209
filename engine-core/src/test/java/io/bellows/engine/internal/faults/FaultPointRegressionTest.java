package io.bellows.engine.internal.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Kind;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Bugs {@link FaultPointTest} found, each reduced to the fault that showed it. */
class FaultPointRegressionTest {
    private static final Path DIR = Path.of("/db");

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value-%d-%s", i, "x".repeat(60)).getBytes();
    }

    /**
     * An open whose check for CURRENT failed took the store for a new one: it wrote a new manifest and
     * CURRENT and its sweep deleted every table (DefaultFileSystem.exists answered false on an I/O error).
     */
    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM", "LSM_TRIE", "TRIAD"})
    void openWhoseCurrentCheckFailsDoesNotCreateANewStore(CompactionStyle style) {
        EngineOptions options = FaultRun.options(style);
        CrashableFileSystem mem = new CrashableFileSystem();
        try (EngineImpl db = EngineImpl.open(DIR, options, mem)) {
            for (int i = 0; i < 500; i++) {
                db.put(key(i), value(i), WriteOptions.sync());
            }
            db.flush();
        }
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        fs.inject(Fault.on(Op.EXISTS).pathMatching("CURRENT"));
        assertThrows(EngineIOException.class, () -> EngineImpl.open(DIR, options, fs));
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            for (int i = 0; i < 500; i++) {
                assertArrayEquals(value(i), db.get(key(i)), "key " + i);
            }
        }
    }

    /**
     * VersionSet.writeNewManifest: when creating the new manifest file or appending its header failed, its
     * catch block called closeQuietly(w) with w still null, and the NullPointerException replaced the
     * IOException, so open (of a new store, or recovery's new manifest) threw a NullPointerException
     * instead of EngineIOException; when the header append failed the created file was never closed.
     * Nothing was lost: the old CURRENT and manifest stayed in charge.
     */
    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM", "LSM_TRIE", "TRIAD"})
    void openWhoseNewManifestCannotBeCreatedThrowsEngineIOException(CompactionStyle style) {
        EngineOptions options = FaultRun.options(style);
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        fs.inject(Fault.on(Op.CREATE).pathMatching("MANIFEST-.*").error(Kind.ENOSPC));
        EngineIOException e = assertThrows(EngineIOException.class, () -> EngineImpl.open(DIR, options, fs));
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertEquals(List.of(), fs.openFiles(), "files left open by the failed open");
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            db.put(key(1), value(1), WriteOptions.sync());
        }
        fs.inject(Fault.on(Op.CREATE).pathMatching("MANIFEST-.*"));
        assertThrows(EngineIOException.class, () -> EngineImpl.open(DIR, options, fs));
        // The header append: the file was created, so it must be closed as well as deleted.
        fs.inject(Fault.on(Op.APPEND).pathMatching("MANIFEST-.*"));
        assertThrows(EngineIOException.class, () -> EngineImpl.open(DIR, options, fs));
        assertEquals(List.of(), fs.openFiles(), "files left open by the failed open");
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            assertArrayEquals(value(1), db.get(key(1)));
        }
    }

    /**
     * A WAL whose header append failed was never closed: Wal.create made its LogWriter (which writes the
     * header) before the try that closes the file on failure. Both at open and at the roll of a flush.
     */
    @Test
    void walWhoseHeaderCannotBeWrittenIsClosed() {
        EngineOptions options = FaultRun.options(CompactionStyle.LEVELED);
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new CrashableFileSystem());
        fs.inject(Fault.on(Op.APPEND).pathMatching(".*\\.log"));
        assertThrows(EngineIOException.class, () -> EngineImpl.open(DIR, options, fs));
        assertEquals(List.of(), fs.openFiles(), "files left open by the failed open");
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            db.put(key(1), value(1), WriteOptions.sync());
            // Nothing is appended to the WAL until the flush's roll writes the new log's header.
            fs.inject(Fault.on(Op.APPEND).pathMatching(".*\\.log"));
            assertThrows(EngineIOException.class, db::flush);
            db.put(key(2), value(2), WriteOptions.sync());
            db.flush();
        }
        assertEquals(List.of(), fs.openFiles(), "files left open after close");
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            assertArrayEquals(value(1), db.get(key(1)));
            assertArrayEquals(value(2), db.get(key(2)));
        }
    }

    /** A cursor reaching a table it cannot open threw a bare UncheckedIOException, not EngineIOException. */
    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM", "TRIAD"})
    void cursorThatCannotOpenATableThrowsEngineIOException(CompactionStyle style) {
        EngineOptions options = FaultRun.options(style);
        if (style == CompactionStyle.TRIAD) {
            // TRIAD opens the tables of L0 and of the level L0 compacts into at open, for their sketches; with
            // dynamic level bytes that is the last level here, which would leave the cursor nothing to open.
            options = options.toBuilder().compaction(TriadOptions.builder().dynamicLevelBytes(false).build()).build();
        }
        CrashableFileSystem mem = new CrashableFileSystem();
        try (EngineImpl db = EngineImpl.open(DIR, options, mem)) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value(i), WriteOptions.async());
            }
            db.compactRange(null, null);
        }
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            // The reopened engine has no table open yet: the cursor opens them as it reaches them.
            fs.inject(Fault.on(Op.OPEN).pathMatching(".*\\.sst").times(Integer.MAX_VALUE));
            assertThrows(EngineIOException.class, () -> {
                try (Cursor c = db.cursor(ReadOptions.defaults())) {
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        c.key();
                    }
                }
            });
            fs.clear();
            int n = 0;
            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                for (c.seekToFirst(); c.isValid(); c.next()) {
                    assertArrayEquals(value(n), c.value());
                    n++;
                }
            }
            assertEquals(2000, n);
        }
    }
}
