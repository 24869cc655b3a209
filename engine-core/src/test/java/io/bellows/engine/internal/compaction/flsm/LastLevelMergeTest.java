package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Golden picks of the last level's in-place merge on hand-built versions (numLevels 3, no guards,
 * four tables per guard before a merge): it joins small tables side by side, and it leaves alone tables
 * a merge would write again as they are. guardMinBytes is 256 KiB and the target file size 64 KiB, so
 * "small" is under 32 KiB: when it was guardMinBytes, a merge of four 64 KiB tables wrote four 64 KiB
 * tables and was due again, for ever (an engine wrote 25 MB/s on an idle 840 KB store).
 */
class LastLevelMergeTest {
    private FlsmScheme scheme;
    private VersionSet versions;
    private long seq = 1;

    @BeforeEach
    void setUp() throws IOException {
        EngineOptions o = EngineOptions.builder().numLevels(3).targetFileSize(64 << 10)
                .compaction(FlsmOptions.builder().maxTablesPerGuard(4).guardMinBytes(256 << 10).build()).build();
        scheme = new FlsmScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, 3, scheme, () -> {});
        versions.create("FLSM");
    }

    /** Adds {@code count} tables of {@code size} bytes side by side (no two overlap) to the last level. */
    private void lastLevel(int count, long size) throws IOException {
        VersionEdit edit = new VersionEdit();
        for (int i = 0; i < count; i++) {
            long s = seq;
            seq += 10;
            byte[] lo = String.format("k%04d-a", i).getBytes();
            byte[] hi = String.format("k%04d-z", i).getBytes();
            edit.addFile(2, 0, new FileMeta(versions.newFileNumber(), size, lo, s + 9, hi, s, 10, s + 9));
        }
        versions.logAndApply(edit);
    }

    @Test
    void fullSizeTablesSideBySideAreNotMerged() throws IOException {
        lastLevel(13, 64 << 10);
        assertNull(scheme.pick(versions.current(), Set.of()));
    }

    @Test
    void tablesOverHalfTheTargetAreNotSmall() throws IOException {
        lastLevel(6, 40 << 10);
        assertNull(scheme.pick(versions.current(), Set.of()));
    }

    @Test
    void smallTablesSideBySideAreMergedInPlace() throws IOException {
        lastLevel(4, 20 << 10);
        Compaction c = scheme.pick(versions.current(), Set.of());
        assertNotNull(c);
        assertEquals(2, c.outputLevel(), c.toString());
        assertEquals(4, c.inputFiles().size(), c.toString());
    }
}
