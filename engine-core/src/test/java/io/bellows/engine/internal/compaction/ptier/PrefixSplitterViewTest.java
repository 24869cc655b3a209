package io.bellows.engine.internal.compaction.ptier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.PtierOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.internal.iter.Slice;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * PTIER's splitter on the slice path (issue 16 item 1): fed key views that the next key overwrites, it
 * cuts where the rule on whole keys cuts ({@link Prefixes#same} of the previous and the next key, as the
 * splitter decided before it kept only the previous prefix), with a fixed prefix length and with a
 * user's extractor; and it allocates nothing per key.
 */
class PrefixSplitterViewTest {
    private static final long THRESHOLD = 1000;

    /** Prefix up to and including the first '/', the whole key if it has none. */
    private static final PtierOptions.PrefixExtractor SLASH = key -> {
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '/') {
                return i + 1;
            }
        }
        return key.length;
    };

    @Test
    void viewsCutWhereTheWholeKeyRuleCuts() {
        long seed = TestSeeds.seed("PrefixSplitterViewTest.viewsCutWhereTheWholeKeyRuleCuts");
        Random rnd = new Random(seed);
        for (PtierOptions o : new PtierOptions[] {PtierOptions.builder().prefixLength(3).build(),
                PtierOptions.builder().prefixLength(40).build(), PtierOptions.builder().prefixExtractor(SLASH).build()}) {
            for (int round = 0; round < 20; round++) {
                List<byte[]> keys = keys(rnd, 500 + rnd.nextInt(2000));
                Prefixes prefixes = new Prefixes(o);
                PrefixSplitter views = new PrefixSplitter(prefixes, THRESHOLD);
                PrefixSplitter arrays = new PrefixSplitter(prefixes, THRESHOLD);
                byte[] scratch = new byte[1024];
                Slice view = new Slice();
                byte[] previous = keys.get(0);
                views.tableStarted(previous.clone());
                arrays.tableStarted(previous.clone());
                long tableBytes = 0;
                long remaining = 200L * keys.size();
                int cuts = 0;
                for (int i = 1; i < keys.size(); i++) {
                    byte[] key = keys.get(i);
                    remaining -= 200;
                    tableBytes += rnd.nextInt(300);
                    views.inputRemaining(remaining);
                    arrays.inputRemaining(remaining);
                    // The view sits at an offset in an array the next key overwrites, as an iterator's does.
                    int off = rnd.nextInt(64);
                    Arrays.fill(scratch, (byte) rnd.nextInt());
                    System.arraycopy(key, 0, scratch, off, key.length);
                    boolean expected = wholeKeyRule(prefixes, previous, key, tableBytes, remaining);
                    String where = "seed " + seed + ", " + o + ", key " + i;
                    assertEquals(expected, views.splitBefore(view.set(scratch, off, key.length), tableBytes), where);
                    assertEquals(expected, arrays.splitBefore(key, tableBytes), where);
                    previous = key;
                    if (expected) {
                        cuts++;
                        tableBytes = 0;
                        views.tableStarted(key.clone());
                        arrays.tableStarted(key.clone());
                    }
                }
                assertTrue(cuts > 0, "seed " + seed + ": the keys never cut a table");
            }
        }
    }

    @Test
    void aSplitDecisionAllocatesNothing() {
        ThreadAllocations.assumeCounted();
        int n = 50_000;
        byte[] block = new byte[n * 24];
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("t%04d/row%015d", i / 100, i).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(key, 0, block, 24 * i, 24);
        }
        for (PtierOptions o : new PtierOptions[] {PtierOptions.defaults(),
                PtierOptions.builder().prefixExtractor(SLASH).build()}) {
            long views = 0;
            long copies = 0;
            for (int round = 0; round < 5; round++) {
                views = decide(o, block, n, false);
                copies = decide(o, block, n, true);
            }
            System.out.printf("PrefixSplitterViewTest: %s: %.1f bytes/key through views, %.1f through copies%n",
                    o.prefixExtractor() == null ? "prefix length " + o.prefixLength() : "extractor", (double) views / n,
                    (double) copies / n);
            // The counter's own bookkeeping may show a few bytes; a 24-byte key copied out is 40 bytes a call.
            assertTrue(views < 1024, o + ": " + views + " bytes for " + n + " split decisions");
        }
    }

    /** Bytes a splitter allocates deciding on {@code n} 24-byte keys of {@code block}, given views or copies. */
    private static long decide(PtierOptions o, byte[] block, int n, boolean copy) {
        PrefixSplitter s = new PrefixSplitter(new Prefixes(o), THRESHOLD);
        Slice view = new Slice();
        s.tableStarted(Arrays.copyOf(block, 24));
        long before = ThreadAllocations.allocated();
        int cuts = 0;
        for (int i = 0; i < n; i++) {
            view.set(block, 24 * i, 24);
            cuts += (copy ? s.splitBefore(view.copy(), 2 * THRESHOLD) : s.splitBefore(view, 2 * THRESHOLD)) ? 1 : 0;
        }
        long bytes = ThreadAllocations.allocated() - before;
        assertEquals(n / 100 - 1, cuts, o + ": a cut at each new prefix");
        return bytes;
    }

    /** The splitter's rule as it was decided on whole keys. */
    private static boolean wholeKeyRule(Prefixes prefixes, byte[] previous, byte[] next, long tableBytes,
            long remaining) {
        if (tableBytes >= PrefixSplitter.HARD_LIMIT_FACTOR * THRESHOLD) {
            return true;
        }
        return !prefixes.same(previous, next) && tableBytes >= THRESHOLD && remaining >= THRESHOLD;
    }

    /** Sorted distinct keys of a few prefixes each, some with '/' and some without, of varied lengths. */
    private static List<byte[]> keys(Random rnd, int n) {
        List<String> out = new ArrayList<>();
        int groups = 1 + rnd.nextInt(30);
        for (int i = 0; i < n; i++) {
            int g = rnd.nextInt(groups);
            String head = g % 4 == 0 ? "p" + g : "p" + g + "/";
            out.add(head + "x".repeat(rnd.nextInt(5)) + rnd.nextInt(1_000_000));
        }
        out = new ArrayList<>(new TreeSet<>(out));
        List<byte[]> keys = new ArrayList<>();
        for (String s : out) {
            keys.add(s.getBytes(StandardCharsets.US_ASCII));
        }
        return keys;
    }
}
