package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Point lookups in a guard whose tables' sequences interleave. The shape is one a crash test found
 * (CI, stop 24): the older fragment of a last-level guard holds a key at sequence 97 and, because other
 * keys reached the level after it, the highest sequence of the guard (5259); the younger fragment holds
 * the key at 5203. Probing the guard's tables by highest sequence and stopping at the first hit
 * answered the value of sequence 97 while cursors answered 5203's.
 */
class FlsmGetTest {
    private static final byte[] KEY = "key01928".getBytes();

    @Test
    void aGuardIsProbedForItsNewestVersionNotItsNewestTable() throws IOException {
        EngineOptions o = EngineOptions.builder().numLevels(3).compaction(FlsmOptions.builder().build()).build();
        FlsmScheme scheme = new FlsmScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        VersionSet versions = new VersionSet(Path.of("/db"), fs, 3, scheme, () -> {});
        versions.create("FLSM");
        FileMeta older = new FileMeta(versions.newFileNumber(), 4096, "key0".getBytes(), 5259, "key3".getBytes(), 40,
                100, 5259);
        FileMeta younger = new FileMeta(versions.newFileNumber(), 4096, "key01".getBytes(), 5203, "key02".getBytes(), 5100,
                20, 5203);
        // A third table whose every entry is older than 5203: the get must not read it.
        FileMeta oldest = new FileMeta(versions.newFileNumber(), 4096, "key01".getBytes(), 30, "key02".getBytes(), 10,
                20, 30);
        versions.logAndApply(new VersionEdit().addFile(2, older).addFile(2, younger).addFile(2, oldest));
        Map<Long, Long> entrySeq = Map.of(older.number, 97L, younger.number, 5203L, oldest.number, 20L);
        Map<Long, Integer> probes = new HashMap<>();
        TableSource tables = new TableSource() {
            @Override
            public InternalIterator iterator(FileMeta file, boolean fillCache) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) {
                probes.merge(file.number, 1, Integer::sum);
                long s = entrySeq.get(file.number);
                out.set(s, InternalKeys.KIND_PUT, Long.toString(s).getBytes());
                return true;
            }

            @Override
            public <T extends OpenTable> T reader(FileMeta file, Class<T> format) {
                throw new UnsupportedOperationException();
            }
        };
        Version v = versions.current();
        Lookup out = new Lookup();
        EngineCounters counters = new EngineCounters();
        assertTrue(scheme.get(v, KEY, Long.MAX_VALUE >>> 8, tables, true, out, counters));
        assertEquals(5203, out.sequence);
        assertArrayEquals("5203".getBytes(), out.copyValue());
        assertEquals(Map.of(older.number, 1, younger.number, 1), probes);
        assertEquals(2, counters.tablesProbed.sum());
    }
}
