package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.internal.compaction.TableAnnotator;
import io.bellows.engine.internal.iter.Slice;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * TRIAD's table sketches on the slice path (issue 16 item 1): a key handed over as a view updates the
 * HyperLogLog exactly as its own array does, so the stored sketch (docs/formats/sstable.md, "TRIAD table
 * sketch") is the same bytes whichever path wrote it; and a view costs no copy of the key.
 */
class SketchViewTest {
    @Test
    void aViewSketchesAsTheKeysOwnArray() {
        long seed = TestSeeds.seed("SketchViewTest.aViewSketchesAsTheKeysOwnArray");
        Random rnd = new Random(seed);
        TableAnnotator arrays = new Sketches().annotator();
        TableAnnotator views = new Sketches().annotator();
        byte[] block = new byte[1024];
        Slice view = new Slice();
        // Tables of a few keys (a list in DataSketches) up to many (the HLL array), one annotator for all, as
        // a sink uses it; key lengths pass the longest that has an array of its own.
        for (int table = 0; table < 12; table++) {
            int keys = table < 4 ? rnd.nextInt(20) : 1 << (table + 2);
            int nonEmpty = 0;
            for (int i = 0; i < keys; i++) {
                byte[] key = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(400) : rnd.nextInt(24)];
                rnd.nextBytes(key);
                int off = rnd.nextInt(block.length - key.length + 1);
                rnd.nextBytes(block);
                System.arraycopy(key, 0, block, off, key.length);
                arrays.addKey(key);
                views.addKey(view.set(block, off, key.length));
                nonEmpty += key.length > 0 ? 1 : 0;
            }
            byte[] expected = arrays.finish(table);
            assertArrayEquals(expected, views.finish(table), "seed " + seed + ", table " + table);
            assertEquals(nonEmpty, TableSketch.decode(expected).keys, "seed " + seed + ", table " + table);
        }
    }

    /**
     * DataSketches' update allocates its hash state and its result (32 bytes each) unless the JIT inlines
     * its MurmurHash3 into the caller, which depends on the order things were compiled in; so the bound is
     * the library's own worst case (a copied key on top of it would pass it), the figures are printed, and
     * that the key's array is reused is ExactScratchTest's.
     */
    @Test
    void aViewCostsNoCopyOfTheKey() {
        ThreadAllocations.assumeCounted();
        int n = 100_000;
        byte[] block = new byte[16 * n];
        new Random(7).nextBytes(block);
        long copies = Long.MAX_VALUE;
        long views = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            copies = Math.min(copies, sketch(block, n, true));
            views = Math.min(views, sketch(block, n, false));
        }
        System.out.printf("SketchViewTest: %.1f bytes/key through views, %.1f through copies%n", (double) views / n,
                (double) copies / n);
        assertTrue(views < 64L * n + (64 << 10), views + " bytes through views for " + n + " keys");
    }

    /** Bytes an annotator allocates sketching {@code n} 16-byte keys of {@code block}. */
    private static long sketch(byte[] block, int n, boolean copy) {
        TableAnnotator a = new Sketches().annotator();
        Slice view = new Slice();
        long before = ThreadAllocations.allocated();
        for (int i = 0; i < n; i++) {
            view.set(block, 16 * i, 16);
            if (copy) {
                a.addKey(view.copy());
            } else {
                a.addKey(view);
            }
        }
        return ThreadAllocations.allocated() - before;
    }
}
