package io.bellows.engine.internal.compaction.leveled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Picking decisions of the leveled scheme with static level targets on hand-built versions. */
class LeveledSchemeTest {
    private final EngineOptions options = EngineOptions.builder().numLevels(4).l0Triggers(2, 3, 4)
            .maxBytesForLevelBase(1000 << 10).targetFileSize(100 << 10).levelSizeMultiplier(10)
            .compaction(LeveledOptions.builder().dynamicLevelBytes(false).build()).build();
    private LeveledScheme scheme;
    private VersionSet versions;
    private long seq = 1;

    @BeforeEach
    void setUp() throws IOException {
        scheme = new LeveledScheme(options);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, 4, scheme, () -> {});
        versions.create("LEVELED");
    }

    private FileMeta table(String lo, String hi, long size) {
        long s = seq;
        seq += 10;
        return new FileMeta(versions.newFileNumber(), size, lo.getBytes(), s + 9, hi.getBytes(), s, 10, s + 9);
    }

    private Version apply(VersionEdit e) throws IOException {
        versions.logAndApply(e);
        return versions.current();
    }

    @Test
    void l0CompactsAllOfL0WithOverlapsOnceOverTrigger() throws IOException {
        FileMeta l1a = table("a", "c", 10);
        FileMeta l1b = table("m", "p", 10);
        FileMeta l1c = table("x", "z", 10);
        Version v = apply(new VersionEdit().addFile(1, l1a).addFile(1, l1b).addFile(1, l1c)
                .addFile(0, table("b", "d", 10)));
        assertNull(scheme.pick(v, Set.of()), "one L0 table is under the trigger of 2");
        v = apply(new VersionEdit().addFile(0, table("n", "o", 10)));
        Compaction c = scheme.pick(v, Set.of());
        assertEquals(1, c.outputLevel());
        List<Long> numbers = new ArrayList<>();
        for (FileMeta f : c.inputFiles()) {
            numbers.add(f.number);
        }
        assertEquals(4, numbers.size(), c.toString());
        assertTrue(numbers.contains(l1a.number) && numbers.contains(l1b.number));
        assertFalse(numbers.contains(l1c.number));
        assertFalse(c.isTrivialMove());
        assertNull(scheme.pick(v, Set.of(l1b.number)), "busy overlap blocks the L0 compaction");
    }

    @Test
    void levelOverTargetMovesATableWithoutOverlapTrivially() throws IOException {
        Version v = apply(new VersionEdit().addFile(1, table("a", "b", 600 << 10)).addFile(1, table("c", "d", 600 << 10))
                .addFile(2, table("c", "cz", 10)));
        Compaction c = scheme.pick(v, Set.of());
        assertEquals(2, c.outputLevel());
        assertTrue(c.isTrivialMove(), c.toString());
        assertEquals("a", new String(c.inputFiles().get(0).smallestKey));
        VersionEdit e = new VersionEdit();
        scheme.onCompacted(c, e);
        versions.logAndApply(e.deleteFile(1, c.inputFiles().get(0).number).addFile(2, c.inputFiles().get(0)));
        // The cursor moved past "b": the next pick starts after it and must merge with L2's "c".
        Compaction next = scheme.pick(versions.current(), Set.of());
        assertNull(next, "L1 is now 600 KiB, under its 1000 KiB target");
    }

    @Test
    void pressureFollowsL0Triggers() throws IOException {
        Version v = apply(new VersionEdit().addFile(0, table("a", "b", 1)).addFile(0, table("a", "b", 1)));
        assertEquals(WritePressure.NONE, scheme.pressure(v));
        v = apply(new VersionEdit().addFile(0, table("a", "b", 1)));
        assertEquals(WritePressure.SLOWDOWN, scheme.pressure(v));
        v = apply(new VersionEdit().addFile(0, table("a", "b", 1)));
        assertEquals(WritePressure.STOP, scheme.pressure(v));
    }

    @Test
    void getProbesL0NewestFirstThenOneTablePerLevel() throws IOException {
        FileMeta old0 = table("a", "z", 1);
        FileMeta new0 = table("a", "z", 1);
        FileMeta l1 = table("k", "m", 1);
        FileMeta l2 = table("a", "f", 1);
        Version v = apply(new VersionEdit().addFile(0, old0).addFile(0, new0).addFile(1, l1).addFile(2, l2));
        List<FileMeta> out = new ArrayList<>();
        scheme.candidates(v, "l".getBytes(), out);
        assertEquals(List.of(new0.number, old0.number, l1.number), numbers(out));
        out.clear();
        scheme.candidates(v, "b".getBytes(), out);
        assertEquals(List.of(new0.number, old0.number, l2.number), numbers(out));
    }

    private static List<Long> numbers(List<FileMeta> files) {
        List<Long> n = new ArrayList<>();
        for (FileMeta f : files) {
            n.add(f.number);
        }
        return n;
    }
}
