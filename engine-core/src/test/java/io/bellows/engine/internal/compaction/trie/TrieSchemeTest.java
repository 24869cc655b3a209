package io.bellows.engine.internal.compaction.trie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.table.htable.HTableFormat;
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

/**
 * Golden picking decisions of LSM_TRIE on hand-built versions: 16-bucket tables (capacity about 62 KB),
 * three levels, piles pushed down at four tables' worth (trigger volume 0.9 * 4 * capacity) or merged
 * in place at eight tables holding less (four if they hold less than one full table).
 */
class TrieSchemeTest {
    private static final long CAPACITY = HTableFormat.capacity(16);
    private TrieScheme scheme;
    private VersionSet versions;
    private long seq = 1;

    @BeforeEach
    void setUp() throws IOException {
        setUp(4);
    }

    private void setUp(int pileTrigger) throws IOException {
        EngineOptions o = EngineOptions.builder()
                .compaction(TrieOptions.builder().tableBuckets(16).depth(3)
                        .pileLimits(pileTrigger, pileTrigger + 4, pileTrigger + 8).hashSeed(1).build())
                .build();
        scheme = new TrieScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, 3, scheme, () -> {});
        versions.create("LSM_TRIE");
    }

    /** A table of {@code dataBytes} in {@code container}, newer than every table made before it. */
    private Version add(long container, long dataBytes, List<FileMeta> into) throws IOException {
        return add(container, dataBytes, 10, into);
    }

    /** The same, holding {@code entries} items. */
    private Version add(long container, long dataBytes, long entries, List<FileMeta> into) throws IOException {
        long s = seq;
        seq += 10;
        FileMeta f = new FileMeta(versions.newFileNumber(), dataBytes + 8192, "a".getBytes(), s + 9, "z".getBytes(), s,
                entries, s + 9);
        into.add(f);
        versions.logAndApply(new VersionEdit().addFile(Containers.level(container),
                Containers.placement(container, dataBytes), f));
        return versions.current();
    }

    private static List<Long> numbers(Compaction c) {
        List<Long> out = new ArrayList<>();
        for (FileMeta f : c.inputFiles()) {
            out.add(f.number);
        }
        out.sort(null);
        return out;
    }

    private static List<Long> numbers(List<FileMeta> files) {
        List<Long> out = new ArrayList<>();
        for (FileMeta f : files) {
            out.add(f.number);
        }
        out.sort(null);
        return out;
    }

    @Test
    void everyInstalledVersionKeepsItsOwnPileIndex() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version older = add(Containers.ROOT, 4 << 10, root);
        Version newer = add(Containers.ROOT, 4 << 10, root);
        PileIndex olderIdx = scheme.piles(older);
        PileIndex newerIdx = scheme.piles(newer);
        assertSame(older.schemeIndex(), olderIdx, "built at install, not per call");
        assertSame(newer.schemeIndex(), newerIdx);
        // Alternating versions (a compaction's base, then the current one) must not rebuild either.
        assertSame(olderIdx, scheme.piles(older));
        assertSame(newerIdx, scheme.piles(newer));
        assertEquals(1, olderIdx.pile(Containers.ROOT).size());
        assertEquals(numbers(root), numbers(newerIdx.pile(Containers.ROOT)));
    }

    /** An installed version's index shares untouched levels with the one before and equals a fresh build. */
    @Test
    void pileIndexSharesUntouchedLevelsAndMatchesAFreshBuild() throws IOException {
        long child = Containers.child(Containers.ROOT, 5);
        long grandchild = Containers.child(child, 2);
        long[] containers = {Containers.ROOT, child, grandchild};
        for (int i = 0; i < 9; i++) {
            Version before = versions.current();
            long c = containers[i % 3];
            Version v = add(c, (1 + i) << 10, new ArrayList<>());
            PileIndex installed = scheme.piles(v);
            PileIndex fresh = new PileIndex(v);
            for (long id : containers) {
                assertEquals(numbers(fresh.pile(id)), numbers(installed.pile(id)), "pile of " + id + " after add " + i);
                assertEquals(fresh.volume(id), installed.volume(id));
                assertEquals(fresh.subtreeVolume(id), installed.subtreeVolume(id));
                if (id != c && !scheme.piles(before).pile(id).isEmpty()) {
                    assertSame(scheme.piles(before).pile(id), installed.pile(id), "untouched level shared, add " + i);
                }
            }
            assertArrayEquals(fresh.containers(), installed.containers());
        }
    }

    @Test
    void smallRootPileIsMergedInPlaceAtFourTables() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version v = null;
        for (int i = 0; i < 3; i++) {
            v = add(Containers.ROOT, 4 << 10, root);
        }
        assertNull(scheme.pick(v, Set.of()), "3 small tables: under 4 tables and under the trigger volume");
        v = add(Containers.ROOT, 4 << 10, root);
        Compaction c = scheme.pick(v, Set.of());
        assertEquals("pile merge of /: L0#3 L0#4 L0#5 L0#6 -> L0", sorted(c));
        assertEquals(numbers(root), numbers(c));
    }

    @Test
    void pileOfMoreThanATableIsMergedInPlaceAtTwiceTheTriggerCount() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version v = add(Containers.ROOT, CAPACITY, root);
        for (int i = 0; i < 6; i++) {
            v = add(Containers.ROOT, 4 << 10, root);
        }
        assertNull(scheme.pick(v, Set.of()), "7 tables holding more than a full table: under 2 * pileTrigger tables");
        v = add(Containers.ROOT, 4 << 10, root);
        Compaction c = scheme.pick(v, Set.of());
        assertEquals("pile merge of /: L0#3 L0#4 L0#5 L0#6 L0#7 L0#8 L0#9 L0#10 -> L0", sorted(c));
    }

    @Test
    void pileAtTheTriggerVolumeIsPushedDownOldestFirst() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version v = null;
        for (int i = 0; i < 3; i++) {
            v = add(Containers.ROOT, CAPACITY, root);
        }
        assertNull(scheme.pick(v, Set.of()), "three full tables are under 0.9 * 4 of them");
        v = add(Containers.ROOT, CAPACITY, root);
        Compaction c = scheme.pick(v, Set.of());
        assertEquals(1, c.outputLevel(), c.toString());
        assertTrue(c.toString().startsWith("pile of /:"), c.toString());
        assertEquals(numbers(root), numbers(c), "4 full tables fit the drain limit of 0.96 * 8 tables");
        long child = Containers.child(Containers.ROOT, 3);
        v = add(child, 1 << 10, new ArrayList<>());
        Compaction beside = scheme.pick(v, Set.of(versions.current().files(1).get(0).number));
        assertEquals(numbers(root), numbers(beside), "a child draining its oldest tables does not hold the push back");
    }

    @Test
    void drainFillFollowsTheItemsPerTable() {
        assertEquals(TrieScheme.DRAIN_FILL, TrieScheme.drainFill(0));
        assertEquals(TrieScheme.DRAIN_FILL, TrieScheme.drainFill(4_000), "a 1.5% spread keeps the 0.96 margin");
        assertEquals(1 - 4 * Math.sqrt(7.0 / 320_000), TrieScheme.drainFill(40_000), 1e-12);
        assertEquals(TrieScheme.MAX_DRAIN_FILL, TrieScheme.drainFill(260_000), "a real-size table: the cap");
    }

    /**
     * Seven full tables and a newest one 0.8 full: 7.8 tables' worth (7.84, placements rounding up to KiB).
     * Tables of few items drain up to 0.96 * 8 and leave the newest behind; tables of a million items each
     * drain up to 0.99 * 8, all eight.
     */
    @Test
    void pileOfManyItemsDrainsCloserToEightFullTables() throws IOException {
        for (long entries : new long[] {10, 1_000_000}) {
            setUp();
            List<FileMeta> root = new ArrayList<>();
            Version v = null;
            for (int i = 0; i < 7; i++) {
                v = add(Containers.ROOT, CAPACITY, entries, root);
            }
            v = add(Containers.ROOT, CAPACITY * 8 / 10, entries * 8 / 10, root);
            Compaction c = scheme.pick(v, Set.of());
            assertTrue(c.toString().startsWith("pile of /:"), c.toString());
            List<Long> expected = numbers(root).subList(0, entries == 10 ? 7 : 8);
            assertEquals(expected, numbers(c), entries + " items per table: " + c);
        }
    }

    /**
     * A pile trigger of 16 gives each child two tables' worth, cut into parts by hash bits, whose uneven
     * shares the fixed margins size: tables of many items drain up to 0.96 * 16 as tables of few do.
     */
    @Test
    void pileOfTwoTablesPerChildKeepsTheFixedDrain() throws IOException {
        setUp(16);
        List<FileMeta> root = new ArrayList<>();
        Version v = null;
        for (int i = 0; i < 15; i++) {
            v = add(Containers.ROOT, CAPACITY, 1_000_000, root);
        }
        v = add(Containers.ROOT, CAPACITY * 7 / 10, 700_000, root);
        Compaction c = scheme.pick(v, Set.of());
        assertTrue(c.toString().startsWith("pile of /:"), c.toString());
        assertEquals(numbers(root).subList(0, 15), numbers(c),
                "15.78 tables' worth: 0.99 * 16 would drain them all, 0.96 * 16 = 15.36 holds 15");
    }

    /** A push onto a pile being merged in place waits for the merge (InPlaceMerges says why). */
    @Test
    void pushWaitsForAChildMergedInPlace() throws IOException {
        long child = Containers.child(Containers.ROOT, 3);
        List<FileMeta> small = new ArrayList<>();
        Version v = null;
        for (int i = 0; i < 4; i++) {
            v = add(child, 1 << 10, small);
        }
        Compaction merge = scheme.pick(v, Set.of());
        assertEquals("pile merge of /3: L1#3 L1#4 L1#5 L1#6 -> L1", sorted(merge));
        Set<Long> merging = Set.copyOf(numbers(small));
        List<FileMeta> root = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            v = add(Containers.ROOT, CAPACITY, root);
        }
        assertNull(scheme.pick(v, merging), "the push waits while /3 is merged in place");
        Compaction push = scheme.pick(v, Set.of());
        assertEquals(numbers(root), numbers(push), "once the merge is done (or was never run), the push goes");
        assertEquals(1, push.outputLevel());
    }

    /**
     * The root's write limits (pileLimits 4 / 8 / 12 here) count full tables' worth of root data, whatever
     * the MemStore size (64 MiB here, about a thousand of these tables per flush). Counting flushes instead
     * was measured and dropped: writers stalled less, but the store did more work in all (docs/benchmarks.md,
     * "LSM_TRIE's root limits counted in flushes").
     */
    @Test
    void rootWriteLimitsCountFullTables() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version v = null;
        for (int i = 0; i < 7; i++) {
            v = add(Containers.ROOT, CAPACITY, root);
        }
        assertEquals(WritePressure.NONE, scheme.pressure(v), "7 full tables' worth");
        v = add(Containers.ROOT, CAPACITY / 2, root);
        v = add(Containers.ROOT, CAPACITY - CAPACITY / 2, root);
        assertEquals(WritePressure.SLOWDOWN, scheme.pressure(v), "8 full tables' worth in 9 tables");
        for (int i = 0; i < 3; i++) {
            v = add(Containers.ROOT, CAPACITY, root);
        }
        assertEquals(WritePressure.SLOWDOWN, scheme.pressure(v), "11 full tables' worth");
        v = add(Containers.ROOT, CAPACITY, root);
        assertEquals(WritePressure.STOP, scheme.pressure(v), "12 full tables' worth");
    }

    @Test
    void inPlaceMergeWaitsForItsParent() throws IOException {
        List<FileMeta> root = new ArrayList<>();
        Version v = add(Containers.ROOT, 1 << 10, root);
        long child = Containers.child(Containers.ROOT, 5);
        for (int i = 0; i < 4; i++) {
            v = add(child, 1 << 10, new ArrayList<>());
        }
        assertNull(scheme.pick(v, Set.of(root.get(0).number)), "the parent's pile is being compacted");
        assertEquals("pile merge of /5: L1#4 L1#5 L1#6 L1#7 -> L1", sorted(scheme.pick(v, Set.of())));
    }

    /** compactRange takes a small store's whole trie into the root, and pushes a large subtree down. */
    @Test
    void compactRangePullsSmallSubtreesUpAndPushesLargeOnesDown() throws IOException {
        List<FileMeta> all = new ArrayList<>();
        add(Containers.ROOT, 10 << 10, all);
        long child = Containers.child(Containers.ROOT, 2);
        add(child, 10 << 10, all);
        Version v = add(Containers.child(child, 6), 10 << 10, all);
        Compaction c = scheme.pickManual(v, 0, null, null);
        assertEquals(numbers(all), numbers(c), "30 KB in the whole trie: everything comes up to the root");

        List<FileMeta> big = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            v = add(Containers.child(Containers.child(Containers.ROOT, 1), 1), CAPACITY, big);
        }
        c = scheme.pickManual(v, 0, null, null);
        assertEquals(numbers(all.subList(0, 1)), numbers(c), "over the trigger: the root pile is pushed down alone");
        c = scheme.pickManual(v, 1, null, null);
        assertEquals(numbers(all.subList(1, 3)), numbers(c), "/2 pulls its small subtree up; /1's own pile is empty");
        c = scheme.pickManual(v, 2, null, null);
        big.add(all.get(2));
        assertEquals(numbers(big), numbers(c), "every last-level container is garbage-collected in place");
        assertEquals(2, c.outputLevel());
    }

    private static String sorted(Compaction c) {
        String s = c.toString();
        int colon = s.indexOf(": ");
        int arrow = s.lastIndexOf(" -> ");
        List<String> inputs = new ArrayList<>(List.of(s.substring(colon + 2, arrow).trim().split(" ")));
        inputs.sort((a, b) -> Long.compare(Long.parseLong(a.substring(a.indexOf('#') + 1)),
                Long.parseLong(b.substring(b.indexOf('#') + 1))));
        return s.substring(0, colon + 2) + String.join(" ", inputs) + s.substring(arrow);
    }
}
