package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.SegmentCounters;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The mutable segment with an MSLAB pool: a skiplist whose nodes hold their links, key and value inline
 * in the pool's chunks ({@link NodeArena}), as RocksDB's InlineSkipList and LevelDB's arena skiplist.
 * A search step reads one node, whose key sits right after its links; the ConcurrentSkipListMap it
 * replaces read an index node, a node, a Cell and the chunk for every comparison, and profiles of a
 * fill had 82% of the writer's samples in those comparisons. It also costs 24 + 8 × height bytes per
 * entry (1.33 links on average) where the map, its index and the Cell took about 88.
 *
 * <p>Node layout, native byte order: {@code [0] seq (8) [8] keyLength (4) [12] valueLength (4, -1 for a
 * tombstone) [16] kind (1) [17] height (1) [24] height links (8 each: node addresses, 0 = none)}, then
 * the key, then the value.
 *
 * <p>Thread safety: one adding thread at a time ({@link MutableSegment}); readers need no lock. A node is
 * written in full, its own links with plain stores, before its predecessors' links are set to it with a
 * release store; readers follow links with acquire loads, so a node they reach is complete (LevelDB's
 * SkipList publication rule). The height is a hint: a reader that sees a new height before the head's
 * link at that level reads an empty level and goes down.
 */
final class InlineSkipListSegment implements MutableSegment, CellSource {
    static final int MAX_HEIGHT = 12;
    private static final int SEQ = 0;
    private static final int KEY_LENGTH = 8;
    private static final int VALUE_LENGTH = 12;
    private static final int KIND = 16;
    private static final int HEIGHT = 17;
    private static final int LINKS = 24;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle HEAD = MethodHandles.arrayElementVarHandle(long[].class);

    private final NodeArena arena;
    private final List<SegmentMemory> memory;
    private final long[] head = new long[MAX_HEIGHT];
    private volatile int height = 1;
    private final SegmentCounters counters = new SegmentCounters();
    /** The writer's predecessors at each level. */
    private final long[] splice = new long[MAX_HEIGHT];
    private long random = 0x9E3779B97F4A7C15L;

    InlineSkipListSegment(NodeArena arena) {
        this.arena = arena;
        this.memory = List.of(arena);
    }

    @Override
    public void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq,
            int kind) {
        int top = height - 1;
        long x = NodeArena.NULL;
        long next = NodeArena.NULL;
        for (int level = top; level >= 0; level--) {
            next = next(x, level);
            while (next != NodeArena.NULL && compare(next, keyBuf, keyOff, keyLen, seq) < 0) {
                x = next;
                next = next(x, level);
            }
            splice[level] = x;
        }
        if (next != NodeArena.NULL && compare(next, keyBuf, keyOff, keyLen, seq) == 0) {
            // The same key at the same sequence is the same write (a set, as the map was).
            return;
        }
        int h = randomHeight();
        if (h > top + 1) {
            for (int level = top + 1; level < h; level++) {
                splice[level] = NodeArena.NULL;
            }
            height = h;
        }
        boolean tombstone = valueBuf == null;
        int storedValue = tombstone ? 0 : valueLen;
        long node = arena.allocate(LINKS + 8 * h + keyLen + storedValue);
        byte[] b = arena.chunk(node);
        int o = NodeArena.offset(node);
        LONGS.set(b, o + SEQ, seq);
        INTS.set(b, o + KEY_LENGTH, keyLen);
        INTS.set(b, o + VALUE_LENGTH, tombstone ? -1 : valueLen);
        b[o + KIND] = (byte) kind;
        b[o + HEIGHT] = (byte) h;
        int keyAt = o + LINKS + 8 * h;
        System.arraycopy(keyBuf, keyOff, b, keyAt, keyLen);
        if (!tombstone) {
            System.arraycopy(valueBuf, valueOff, b, keyAt + keyLen, valueLen);
        }
        for (int level = 0; level < h; level++) {
            LONGS.set(b, o + LINKS + 8 * level, next(splice[level], level));
            setNext(splice[level], level, node);
        }
        counters.add(seq, keyLen + storedValue, kind == InternalKeys.KIND_DELETE);
    }

    /** Heights 1..MAX_HEIGHT, each level a quarter as likely as the one below (LevelDB's branching). */
    private int randomHeight() {
        long r = random;
        r ^= r << 13;
        r ^= r >>> 7;
        r ^= r << 17;
        random = r;
        int h = 1;
        while (h < MAX_HEIGHT && (r & 3) == 0) {
            h++;
            r >>>= 2;
        }
        return h;
    }

    private long next(long node, int level) {
        if (node == NodeArena.NULL) {
            return (long) HEAD.getAcquire(head, level);
        }
        return (long) LONGS.getAcquire(arena.chunk(node), NodeArena.offset(node) + LINKS + 8 * level);
    }

    private void setNext(long node, int level, long to) {
        if (node == NodeArena.NULL) {
            HEAD.setRelease(head, level, to);
        } else {
            LONGS.setRelease(arena.chunk(node), NodeArena.offset(node) + LINKS + 8 * level, to);
        }
    }

    /** The node's internal key against (key, seq): user key ascending, then sequence descending. */
    private int compare(long node, byte[] key, int keyOff, int keyLen, long seq) {
        byte[] b = arena.chunk(node);
        int o = NodeArena.offset(node);
        int at = o + LINKS + 8 * b[o + HEIGHT];
        int c = Arrays.compareUnsigned(b, at, at + (int) INTS.get(b, o + KEY_LENGTH), key, keyOff, keyOff + keyLen);
        return c != 0 ? c : Long.compare(seq, (long) LONGS.get(b, o + SEQ));
    }

    /** The first node at or after (key, seq), or NULL. */
    long seek(byte[] key, int keyOff, int keyLen, long seq) {
        long x = NodeArena.NULL;
        for (int level = height - 1; ; ) {
            long next = next(x, level);
            if (next != NodeArena.NULL && compare(next, key, keyOff, keyLen, seq) < 0) {
                x = next;
            } else if (level == 0) {
                return next;
            } else {
                level--;
            }
        }
    }

    /** The last node before (key, seq), or at it too if {@code inclusive}; NULL if none. */
    long seekBefore(byte[] key, int keyOff, int keyLen, long seq, boolean inclusive) {
        long x = NodeArena.NULL;
        for (int level = height - 1; ; ) {
            long next = next(x, level);
            int c = next == NodeArena.NULL ? 1 : compare(next, key, keyOff, keyLen, seq);
            if (c < 0 || (inclusive && c == 0)) {
                x = next;
            } else if (level == 0) {
                return x;
            } else {
                level--;
            }
        }
    }

    long first() {
        return next(NodeArena.NULL, 0);
    }

    long last() {
        long x = NodeArena.NULL;
        for (int level = height - 1; ; ) {
            long next = next(x, level);
            if (next != NodeArena.NULL) {
                x = next;
            } else if (level == 0) {
                return x;
            } else {
                level--;
            }
        }
    }

    long after(long node) {
        return next(node, 0);
    }

    /** The node before {@code node}, or NULL: a search, as LevelDB's Prev (nodes have no back links). */
    long before(long node) {
        byte[] b = arena.chunk(node);
        int o = NodeArena.offset(node);
        return seekBefore(b, keyAt(b, o), keyLength(b, o), sequence(b, o), false);
    }

    byte[] chunk(long node) {
        return arena.chunk(node);
    }

    static int keyAt(byte[] b, int o) {
        return o + LINKS + 8 * b[o + HEIGHT];
    }

    static int keyLength(byte[] b, int o) {
        return (int) INTS.get(b, o + KEY_LENGTH);
    }

    /** The value's length, -1 for a tombstone. */
    static int valueLength(byte[] b, int o) {
        return (int) INTS.get(b, o + VALUE_LENGTH);
    }

    static long sequence(byte[] b, int o) {
        return (long) LONGS.get(b, o + SEQ);
    }

    static int kind(byte[] b, int o) {
        return b[o + KIND];
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        long node = seek(key, 0, key.length, seq);
        if (node == NodeArena.NULL) {
            return false;
        }
        byte[] b = arena.chunk(node);
        int o = NodeArena.offset(node);
        int at = keyAt(b, o);
        int kl = keyLength(b, o);
        if (!Arrays.equals(b, at, at + kl, key, 0, key.length)) {
            return false;
        }
        // The value stays in the chunk until the reader, still inside its view, copies it out once.
        int vl = valueLength(b, o);
        out.set(sequence(b, o), kind(b, o), vl < 0 ? null : b, at + kl, Math.max(vl, 0));
        return true;
    }

    @Override
    public InternalIterator iterator() {
        return new InlineSkipListIterator(this);
    }

    /** Cells over the nodes' bytes, for flattening and merging without copying them. */
    @Override
    public Iterator<Cell> cells() {
        return new Iterator<>() {
            private long node = first();

            @Override
            public boolean hasNext() {
                return node != NodeArena.NULL;
            }

            @Override
            public Cell next() {
                if (node == NodeArena.NULL) {
                    throw new NoSuchElementException();
                }
                byte[] b = arena.chunk(node);
                int o = NodeArena.offset(node);
                int at = keyAt(b, o);
                int kl = keyLength(b, o);
                int vl = valueLength(b, o);
                Cell c = new Cell(b, at, kl, vl < 0 ? null : b, at + kl, Math.max(vl, 0), sequence(b, o), kind(b, o));
                node = after(node);
                return c;
            }
        };
    }

    @Override
    public long dataSize() {
        return counters.dataSize();
    }

    /**
     * The bytes of the nodes themselves (links, header, key and value), so a MemStore fills by what its
     * entries take, not by the chunk granularity (a fresh segment would otherwise weigh a whole chunk).
     */
    @Override
    public long heapSize() {
        return arena.usedBytes();
    }

    @Override
    public long entries() {
        return counters.entries();
    }

    @Override
    public long deletions() {
        return counters.deletions();
    }

    @Override
    public long minSequence() {
        return counters.minSequence();
    }

    @Override
    public long maxSequence() {
        return counters.maxSequence();
    }

    @Override
    public String kind() {
        return "skiplist";
    }

    @Override
    public List<SegmentMemory> memory() {
        return memory;
    }
}
