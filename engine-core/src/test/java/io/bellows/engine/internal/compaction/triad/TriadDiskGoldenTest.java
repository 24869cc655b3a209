package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.TableAnnotator;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Golden cases of TRIAD-DISK's deferral (paper §4.2, Algorithm 2): a version with crafted key overlaps,
 * the leveled trigger (2 L0 tables), and the expected decision, ratio and compaction.
 */
class TriadDiskGoldenTest {
    private TriadScheme scheme;
    private VersionSet versions;
    private long seq = 1;

    private Version open(TriadOptions triad) throws IOException {
        EngineOptions o = EngineOptions.builder().numLevels(4).l0Triggers(2, 8, 12).maxBytesForLevelBase(1 << 20)
                .targetFileSize(64 << 10).compaction(triad).build();
        scheme = new TriadScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, 4, scheme, () -> {});
        versions.create("TRIAD");
        return versions.current();
    }

    /** A table holding keys {@code prefix}000 .. {@code prefix}(n-1), sketched as a flush would. */
    private FileMeta table(String prefix, int n, boolean sketched) {
        long number = versions.newFileNumber();
        if (sketched) {
            TableAnnotator a = scheme.sketches().annotator();
            for (int i = 0; i < n; i++) {
                a.addKey(key(prefix, i));
            }
            a.finish(number);
        }
        long s = seq;
        seq += n;
        return new FileMeta(number, 100L * n, key(prefix, 0), s, key(prefix, n - 1), s, n, s + n - 1);
    }

    private FileMeta table(String prefix, int n) {
        return table(prefix, n, true);
    }

    private static byte[] key(String prefix, int i) {
        return String.format("%s%04d", prefix, i).getBytes(StandardCharsets.UTF_8);
    }

    private Version apply(VersionEdit e) throws IOException {
        versions.logAndApply(e);
        return versions.current();
    }

    private double figure(String name) {
        return scheme.figures().get(name);
    }

    private static List<Long> numbers(Compaction c) {
        List<Long> out = new ArrayList<>();
        for (FileMeta f : c.inputFiles()) {
            out.add(f.number);
        }
        return out;
    }

    @Test
    void disjointL0TablesAreDeferredUntilAnOverlappingOneArrives() throws IOException {
        open(TriadOptions.defaults());
        Version v = apply(new VersionEdit().addFile(0, table("a", 100)).addFile(0, table("b", 100)));
        assertNull(scheme.pick(v, Set.of()), "ratio ~0 < 0.4 with 2 of 6 tables: deferred");
        assertEquals(0.0, figure("l0.overlap.ratio"), 0.02);
        assertEquals(1.0, figure("l0.deferred"));
        assertNull(scheme.pick(v, Set.of()), "asked again for the same L0");
        assertEquals(1.0, figure("l0.deferred"), "one decision per set of inputs");

        // Keys a0000..a0099 and b0000..b0099 again: sum 400, unique 200, ratio 0.5.
        FileMeta both = table("a", 100);
        TableAnnotator a = scheme.sketches().annotator();
        for (int i = 0; i < 100; i++) {
            a.addKey(key("a", i));
            a.addKey(key("b", i));
        }
        a.finish(both.number);
        v = apply(new VersionEdit().addFile(0, new FileMeta(both.number, 200, key("a", 0), seq, key("b", 99), seq, 200,
                seq)));
        Compaction c = scheme.pick(v, Set.of());
        assertNotNull(c, "ratio 0.5 >= 0.4: runs");
        assertEquals(3, c.outputLevel(), "nothing below L0: the last level is the base level");
        assertEquals(3, c.inputs().size());
        assertEquals(0.5, figure("l0.overlap.ratio"), 0.03);
        assertEquals(1.0, figure("l0.run"));
    }

    @Test
    void staticTargetsCompactL0IntoL1() throws IOException {
        open(TriadOptions.builder().dynamicLevelBytes(false).disk(false).build());
        Version v = apply(new VersionEdit().addFile(0, table("a", 10, false)).addFile(0, table("b", 10, false)));
        assertEquals(1, scheme.pick(v, Set.of()).outputLevel());
    }

    @Test
    void theOverlappingL1TablesCountInTheRatio() throws IOException {
        open(TriadOptions.defaults());
        FileMeta l1 = table("c", 100);
        FileMeta far = table("x", 50);
        // L0: c0000..c0049 and c0050..c0099 (disjoint); L1 holds all 100: sum 200, unique 100, ratio 0.5.
        FileMeta low = table("c", 50);
        FileMeta high = new FileMeta(versions.newFileNumber(), 5000, key("c", 50), seq, key("c", 99), seq, 50, seq);
        TableAnnotator a = scheme.sketches().annotator();
        for (int i = 50; i < 100; i++) {
            a.addKey(key("c", i));
        }
        a.finish(high.number);
        seq++;
        Version v = apply(new VersionEdit().addFile(1, l1).addFile(1, far).addFile(0, low).addFile(0, high));
        Compaction c = scheme.pick(v, Set.of());
        assertNotNull(c);
        assertEquals(List.of(high.number, low.number, l1.number), numbers(c), "all of L0, then the L1 overlap only");
        assertEquals(0.5, figure("l0.overlap.ratio"), 0.03);
        assertEquals(1.0, figure("l0.run"));
    }

    @Test
    void l0AtItsMaximumForcesTheCompaction() throws IOException {
        open(TriadOptions.defaults());
        Version v = versions.current();
        for (int i = 0; i < 5; i++) {
            v = apply(new VersionEdit().addFile(0, table("p" + i, 40)));
            assertNull(scheme.pick(v, Set.of()), (i + 1) + " disjoint L0 tables: under the trigger, then deferred");
        }
        assertEquals(4.0, figure("l0.deferred"), "decisions at 2, 3, 4 and 5 tables");
        v = apply(new VersionEdit().addFile(0, table("p5", 40)));
        Compaction c = scheme.pick(v, Set.of());
        assertNotNull(c, "6 tables = MAX_FILES_L0: forced");
        assertEquals(6, c.inputs().size());
        assertEquals(1.0, figure("l0.forced"));
        assertTrue(figure("l0.overlap.ratio") < 0.05);
    }

    @Test
    void thresholdAndMaximumAreOptions() throws IOException {
        open(TriadOptions.builder().overlapRatioThreshold(0).build());
        Version v = apply(new VersionEdit().addFile(0, table("a", 10)).addFile(0, table("b", 10)));
        assertNotNull(scheme.pick(v, Set.of()), "threshold 0: never deferred");
        assertEquals(1.0, figure("l0.run"));

        open(TriadOptions.builder().l0MaxTables(2).build());
        v = apply(new VersionEdit().addFile(0, table("a", 10)).addFile(0, table("b", 10)));
        assertNotNull(scheme.pick(v, Set.of()), "maximum 2: forced at the trigger");
        assertEquals(1.0, figure("l0.forced"));
    }

    @Test
    void withDiskOffL0CompactsAtTheLeveledTriggerAndTablesCarryNoSketch() throws IOException {
        open(TriadOptions.builder().disk(false).build());
        assertNull(scheme.sketches());
        assertTrue(scheme.figures().keySet().stream().noneMatch(k -> k.startsWith("l0.")), scheme.figures().toString());
        long before = seq;
        FileMeta a = new FileMeta(versions.newFileNumber(), 10, key("a", 0), before, key("a", 9), before, 10, before);
        FileMeta b = new FileMeta(versions.newFileNumber(), 10, key("b", 0), before + 1, key("b", 9), before + 1, 10,
                before + 1);
        Version v = apply(new VersionEdit().addFile(0, a).addFile(0, b));
        assertNotNull(scheme.pick(v, Set.of()));
    }

    @Test
    void anUnsketchedInputRunsTheCompactionAndIsCounted() throws IOException {
        open(TriadOptions.defaults());
        Version v = apply(new VersionEdit().addFile(0, table("a", 10)).addFile(0, table("b", 10, false)));
        assertNotNull(scheme.pick(v, Set.of()), "overlap unknown: leveled behaviour");
        assertEquals(1.0, figure("l0.unsketched"));
        assertTrue(Double.isNaN(figure("l0.overlap.ratio")));
    }

    @Test
    void anEditDeletingATableDropsItsSketch() throws IOException {
        open(TriadOptions.defaults());
        FileMeta t = table("a", 10);
        apply(new VersionEdit().addFile(0, t));
        assertNotNull(scheme.sketches().get(t.number));
        apply(new VersionEdit().deleteFile(0, t.number));
        assertNull(scheme.sketches().get(t.number));
    }
}
