package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Golden guard retirement decisions on hand-built versions: two guarded levels (numLevels 3),
 * guardMinBytes 8 KiB, guards g1 < g2 committed at both levels.
 */
class GuardRetirementTest {
    private static final long MIN = 8 << 10;
    private FlsmScheme scheme;
    private VersionSet versions;
    private byte[] g1;
    private byte[] g2;
    private long seq = 1;

    @BeforeEach
    void setUp() throws IOException {
        EngineOptions o = EngineOptions.builder().numLevels(3)
                .compaction(FlsmOptions.builder().guardBits(1, 0).guardMinBytes(MIN).build()).build();
        scheme = new FlsmScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, 3, scheme, () -> {});
        versions.create("FLSM");
        List<byte[]> guards = new ArrayList<>();
        for (int i = 0; guards.size() < 2; i++) {
            byte[] k = key("g", i);
            if (scheme.hash().topLevel(k) == 1) {
                guards.add(k);
            }
        }
        g1 = guards.get(0);
        g2 = guards.get(1);
    }

    private static byte[] key(String prefix, int i) {
        return String.format("%s%04d", prefix, i).getBytes();
    }

    /** A table of {@code size} bytes holding keys just above {@code guard}. */
    private FileMeta table(byte[] guard, long size) {
        long s = seq;
        seq += 10;
        byte[] lo = Arrays.copyOf(guard, guard.length + 1);
        byte[] hi = Arrays.copyOf(guard, guard.length + 1);
        lo[guard.length] = 1;
        hi[guard.length] = 9;
        return new FileMeta(versions.newFileNumber(), size, lo, s + 9, hi, s, 10, s + 9);
    }

    @Test
    void aGuardLeftSmallAtTheLastLevelIsRetiredThereAndAbove() throws IOException {
        FileMeta big = table(g1, 20 << 10);
        FileMeta small = table(g2, 2 << 10);
        FileMeta pushed = table(g2, 1 << 10);
        versions.logAndApply(new VersionEdit()
                .schemeRecord(GuardRecords.select(1, g1)).schemeRecord(GuardRecords.commit(1, 1, g1))
                .schemeRecord(GuardRecords.select(1, g2)).schemeRecord(GuardRecords.commit(1, 2, g2))
                .addFile(2, 1, big).addFile(2, 2, small).addFile(1, 2, pushed));
        Version v = versions.current();
        Compaction c = scheme.pickManual(v, 1, null, null);
        assertEquals(List.of(pushed.number), List.of(c.inputFiles().get(0).number), c.toString());
        FileMeta out = table(g2, 1 << 10);
        VersionEdit edit = new VersionEdit().deleteFile(1, pushed.number).addFile(2, out);
        versions.logAndApply(edit);

        List<byte[]> records = edit.schemeRecords();
        assertEquals(2, records.size(), "retired at the last level: DELETE, then SELECT at level 3 (no level)");
        assertArrayEquals(GuardRecords.delete(g2), records.get(0));
        assertArrayEquals(GuardRecords.select(3, g2), records.get(1));
        for (VersionEdit.NewFile n : edit.newFiles()) {
            assertEquals(1, n.placement(), "g1 takes over g2's tables: " + n);
        }
        synchronized (scheme) {
            GuardSet.Guard retired = scheme.guards().get(g2);
            assertEquals(3, retired.top, "known, guarding no level");
            assertFalse(retired.committedAt(2));
            assertTrue(scheme.guards().get(g1).committedAt(1), "g1 holds 20 KiB: kept");
        }
        GuardIndex idx = GuardIndex.of(versions.current(), 3);
        assertEquals(2, idx.levels[2].guardCount(), "sentinel and g1");
        assertEquals(3, idx.levels[2].tables[1].length, "g1 holds its table and g2's two");
    }

    @Test
    void aSmallGuardAboveTheLastLevelStaysCommittedBelow() throws IOException {
        FileMeta deep = table(g2, 20 << 10);
        FileMeta small = table(g2, 2 << 10);
        versions.logAndApply(new VersionEdit()
                .schemeRecord(GuardRecords.select(1, g1)).schemeRecord(GuardRecords.commit(1, 1, g1))
                .schemeRecord(GuardRecords.select(1, g2)).schemeRecord(GuardRecords.commit(1, 2, g2))
                .addFile(2, 1, table(g1, 20 << 10)).addFile(2, 2, deep).addFile(0, small));
        Version v = versions.current();
        Compaction c = scheme.pickManual(v, 0, null, null);
        assertEquals(1, c.outputLevel());
        FileMeta out = table(g2, 1 << 10);
        VersionEdit edit = new VersionEdit().deleteFile(0, small.number).addFile(1, out);
        versions.logAndApply(edit);

        List<byte[]> records = edit.schemeRecords();
        assertEquals(3, records.size(), () -> "DELETE, SELECT at level 2, COMMIT from level 2 with its id: "
                + records.stream().map(Bytes::toHex).toList());
        assertArrayEquals(GuardRecords.delete(g2), records.get(0));
        assertArrayEquals(GuardRecords.select(2, g2), records.get(1));
        assertArrayEquals(GuardRecords.commit(2, 2, g2), records.get(2));
        assertEquals(1, edit.newFiles().get(0).placement(), "the new L1 table goes to g1");
        GuardIndex idx = GuardIndex.of(versions.current(), 3);
        assertEquals(2, idx.levels[1].guardCount(), "sentinel and g1 at L1");
        assertEquals(3, idx.levels[2].guardCount(), "g2 still guards L2, where it holds 20 KiB");
    }

    /** Guards retired inside a guard come back a level up once it holds 2 * guardMinBytes per resulting guard. */
    @Test
    void retiredGuardsComeBackWhenTheirGuardHoldsEnough() throws IOException {
        versions.logAndApply(new VersionEdit()
                .schemeRecord(GuardRecords.select(1, g1)).schemeRecord(GuardRecords.commit(1, 1, g1))
                .schemeRecord(GuardRecords.select(3, g2))
                .addFile(2, 1, table(g1, 20 << 10)).addFile(1, 1, table(g1, 2 << 10)));
        Version v = versions.current();
        Compaction c = scheme.pickManual(v, 1, null, null);
        FileMeta in = c.inputFiles().get(0);
        VersionEdit edit = new VersionEdit().deleteFile(1, in.number).addFile(2, table(g2, 12 << 10));
        versions.logAndApply(edit);
        assertEquals(List.of(Bytes.toHex(GuardRecords.select(2, g2))),
                edit.schemeRecords().stream().map(Bytes::toHex).toList(),
                "g1 holds 32 KiB at L2, 16 KiB for each of g1 and g2 (2 * 8 KiB): g2 is selected back at L2");
        synchronized (scheme) {
            assertEquals(2, scheme.guards().get(g2).top);
            assertTrue(scheme.guards().uncommitted().containsKey(g2), "it cuts output at L2 and is committed later");
        }
    }
}
