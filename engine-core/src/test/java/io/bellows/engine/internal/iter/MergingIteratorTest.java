package io.bellows.engine.internal.iter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class MergingIteratorTest {
    record Entry(byte[] key, long seq, int kind, byte[] value, int child) {}

    private static final Comparator<Entry> ORDER = (a, b) -> {
        int c = InternalKeys.compare(a.key, a.seq, b.key, b.seq);
        return c != 0 ? c : Integer.compare(a.child, b.child);
    };

    /** An iterator over a sorted list: the simplest correct InternalIterator. */
    static class ListIterator implements InternalIterator {
        private final List<Entry> entries;
        private int pos;
        boolean closed;

        ListIterator(List<Entry> entries) {
            this.entries = entries;
            this.pos = entries.size();
        }

        @Override
        public boolean isValid() {
            return pos >= 0 && pos < entries.size();
        }

        @Override
        public void seekToFirst() {
            pos = 0;
        }

        @Override
        public void seek(byte[] userKey, long sequence) {
            pos = 0;
            while (pos < entries.size()
                    && InternalKeys.compare(entries.get(pos).key, entries.get(pos).seq, userKey, sequence) < 0) {
                pos++;
            }
        }

        @Override
        public void seekToLast() {
            pos = entries.size() - 1;
        }

        @Override
        public void seekForPrev(byte[] userKey, long sequence) {
            pos = entries.size() - 1;
            while (pos >= 0
                    && InternalKeys.compare(entries.get(pos).key, entries.get(pos).seq, userKey, sequence) > 0) {
                pos--;
            }
        }

        @Override
        public void next() {
            pos++;
        }

        @Override
        public void prev() {
            pos--;
        }

        @Override
        public byte[] key() {
            return entries.get(pos).key;
        }

        @Override
        public long sequence() {
            return entries.get(pos).seq;
        }

        @Override
        public int kind() {
            return entries.get(pos).kind;
        }

        @Override
        public byte[] value() {
            return entries.get(pos).value;
        }

        @Override
        public void close() {
            if (closed) {
                throw new IllegalStateException("closed twice");
            }
            closed = true;
        }
    }

    private static void assertAt(InternalIterator it, Entry e) {
        assertTrue(it.isValid(), "expected an entry");
        assertArrayEquals(e.key, it.key());
        assertEquals(e.seq, it.sequence());
        assertEquals(e.kind, it.kind());
        assertSame(e.value, it.value(), "entry of child " + e.child);
    }

    private static byte[] randomKey(Random rnd) {
        byte[] k = new byte[rnd.nextInt(4)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (rnd.nextInt(8) == 0 ? 0xf0 : 'a' + rnd.nextInt(3));
        }
        return k;
    }

    @Test
    void mergesLikeASortedModel() {
        long seed = TestSeeds.seed("MergingIteratorTest.mergesLikeASortedModel");
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int k = rnd.nextInt(8);
            List<List<Entry>> lists = new ArrayList<>();
            List<Entry> all = new ArrayList<>();
            for (int c = 0; c < k; c++) {
                TreeSet<Entry> child = new TreeSet<>(ORDER);
                int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(60);
                for (int i = 0; i < n; i++) {
                    int kind = rnd.nextInt(4) == 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
                    child.add(new Entry(randomKey(rnd), rnd.nextInt(20), kind, new byte[] {(byte) c}, c));
                }
                lists.add(new ArrayList<>(child));
                all.addAll(child);
            }
            all.sort(ORDER);
            List<ListIterator> children = lists.stream().map(ListIterator::new).toList();
            MergingIterator merged = new MergingIterator(children);
            assertFalse(merged.isValid());

            merged.seekToFirst();
            for (Entry e : all) {
                assertAt(merged, e);
                merged.next();
            }
            assertFalse(merged.isValid());

            for (int probe = 0; probe < 50; probe++) {
                byte[] key = randomKey(rnd);
                long seq = rnd.nextInt(22);
                int at = 0;
                while (at < all.size() && InternalKeys.compare(all.get(at).key, all.get(at).seq, key, seq) < 0) {
                    at++;
                }
                merged.seek(key, seq);
                for (int j = at; j < Math.min(all.size(), at + 5); j++) {
                    assertAt(merged, all.get(j));
                    merged.next();
                }
                if (at + 5 >= all.size()) {
                    assertFalse(merged.isValid());
                }
            }
            merged.close();
            merged.close();
            for (ListIterator child : children) {
                assertTrue(child.closed);
            }
        }
    }

    /**
     * Random walks of next, prev and the four seeks over children that share user keys and even whole
     * internal keys: the merge must follow the sorted model (ties by child index, reversed backward)
     * through every change of direction.
     */
    @Test
    void changesDirectionLikeASortedModel() {
        long seed = TestSeeds.seed("MergingIteratorTest.changesDirectionLikeASortedModel");
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            List<List<Entry>> lists = new ArrayList<>();
            List<Entry> all = new ArrayList<>();
            int k = 1 + rnd.nextInt(6);
            for (int c = 0; c < k; c++) {
                TreeSet<Entry> child = new TreeSet<>(ORDER);
                int n = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(30);
                for (int i = 0; i < n; i++) {
                    int kind = rnd.nextInt(4) == 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
                    child.add(new Entry(randomKey(rnd), rnd.nextInt(6), kind, new byte[] {(byte) c}, c));
                }
                lists.add(new ArrayList<>(child));
                all.addAll(child);
            }
            all.sort(ORDER);
            try (MergingIterator merged = new MergingIterator(lists.stream().map(ListIterator::new).toList())) {
                int at = -1;
                for (int op = 0; op < 60; op++) {
                    boolean valid = at >= 0 && at < all.size();
                    int choice = valid ? rnd.nextInt(10) : 6 + rnd.nextInt(4);
                    if (choice < 3) {
                        merged.next();
                        at++;
                    } else if (choice < 6) {
                        merged.prev();
                        at--;
                    } else {
                        byte[] key = randomKey(rnd);
                        long seq = rnd.nextInt(7);
                        at = switch (choice) {
                            case 6 -> {
                                merged.seekToFirst();
                                yield 0;
                            }
                            case 7 -> {
                                merged.seekToLast();
                                yield all.size() - 1;
                            }
                            case 8 -> {
                                merged.seek(key, seq);
                                int i = 0;
                                while (i < all.size() && InternalKeys.compare(all.get(i).key, all.get(i).seq, key, seq) < 0) {
                                    i++;
                                }
                                yield i;
                            }
                            default -> {
                                merged.seekForPrev(key, seq);
                                int i = all.size() - 1;
                                while (i >= 0 && InternalKeys.compare(all.get(i).key, all.get(i).seq, key, seq) > 0) {
                                    i--;
                                }
                                yield i;
                            }
                        };
                    }
                    String where = "seed " + seed + " round " + round + " op " + op;
                    if (at >= 0 && at < all.size()) {
                        assertTrue(merged.isValid(), where);
                        Entry e = all.get(at);
                        assertArrayEquals(e.key, merged.key(), where);
                        assertEquals(e.seq, merged.sequence(), where);
                        assertSame(e.value, merged.value(), where);
                    } else {
                        assertFalse(merged.isValid(), where);
                    }
                }
            }
        }
    }

    /** Child i holds the entries tagged 4 - i; equal keys must come out as children 0, 1, 2, ... */
    @Test
    void tiesComeOutInChildOrder() {
        byte[] key = "k".getBytes();
        List<ListIterator> children = new ArrayList<>();
        for (int c = 4; c >= 0; c--) {
            children.add(new ListIterator(List.of(new Entry(key, 9, InternalKeys.KIND_PUT, new byte[] {(byte) c}, c),
                    new Entry(key, 3, InternalKeys.KIND_PUT, new byte[] {(byte) (10 + c)}, c))));
        }
        try (MergingIterator merged = new MergingIterator(children)) {
            merged.seekToFirst();
            for (int seq : new int[] {9, 3}) {
                for (int c = 4; c >= 0; c--) {
                    assertEquals(seq, merged.sequence());
                    assertEquals(seq == 9 ? c : 10 + c, merged.value()[0]);
                    merged.next();
                }
            }
            assertFalse(merged.isValid());
            merged.seekToLast();
            for (int seq : new int[] {3, 9}) {
                for (int c = 0; c <= 4; c++) {
                    assertEquals(seq, merged.sequence());
                    assertEquals(seq == 9 ? c : 10 + c, merged.value()[0]);
                    merged.prev();
                }
            }
            assertFalse(merged.isValid());
        }
    }

    @Test
    void closeClosesEveryChildEvenWhenOneFails() {
        ListIterator ok = new ListIterator(List.of());
        InternalIterator failing = new ListIterator(List.of()) {
            @Override
            public void close() {
                throw new IllegalStateException("boom");
            }
        };
        ListIterator last = new ListIterator(List.of());
        MergingIterator merged = new MergingIterator(List.of(ok, failing, last));
        assertThrows(IllegalStateException.class, merged::close);
        assertTrue(ok.closed && last.closed);
    }
}
