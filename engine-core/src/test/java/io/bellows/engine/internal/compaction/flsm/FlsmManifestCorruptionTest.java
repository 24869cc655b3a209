package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.SchemeState;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A manifest whose guard records and table placements disagree is reported as a corrupt manifest. */
class FlsmManifestCorruptionTest {
    private static final Path DIR = Path.of("/db");

    @Test
    void placementOutsideItsGuardIsACorruptManifest() throws Exception {
        EngineOptions o = EngineConfigs.small(CompactionStyle.FLSM, InMemoryCompaction.NONE).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        Random rnd = new Random(5);
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 30_000; i++) {
                byte[] v = new byte[40];
                rnd.nextBytes(v);
                db.put(ByteBuffer.allocate(8).putLong(rnd.nextInt(2_000)).array(), v, WriteOptions.defaults());
            }
            db.flush();
            FlsmStore.awaitQuiet(db);
        }
        // Re-record one guarded table under a guard id no guard record names, through a version set that
        // keeps the scheme's records but skips its checks (as a damaged or foreign writer would).
        FlsmScheme scheme = new FlsmScheme(o);
        SchemeState unchecked = new SchemeState() {
            @Override
            public void apply(byte[] record) {
                scheme.apply(record);
            }

            @Override
            public List<byte[]> snapshot() {
                return scheme.snapshot();
            }

            @Override
            public Comparator<FileMeta> tableOrder(int level) {
                return scheme.tableOrder(level);
            }
        };
        try (VersionSet versions = new VersionSet(DIR, fs, o.numLevels(), unchecked, () -> {})) {
            versions.recover("FLSM");
            versions.startNewManifest();
            Version v = versions.current();
            int level = v.numLevels() - 1;
            FileMeta f = v.files(level).get(0);
            versions.logAndApply(new VersionEdit().deleteFile(level, f.number).addFile(level, 987_654, f));
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, o, fs).close());
        assertTrue(e.file().getFileName().toString().startsWith(FileNames.MANIFEST_PREFIX), e.getMessage());
        assertTrue(e.getMessage().contains("987654"), e.getMessage());
    }
}
