package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.SegmentCounters;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.util.Bytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * NONE's mutable segment with an MSLAB pool: a skiplist whose nodes hold their links, header and the
 * first 16 bytes of their key together ({@link NodeArena}'s {@code long[]} chunks), the key and value
 * in the pool's byte chunks, as RocksDB's InlineSkipList and LevelDB's arena skiplist. A search step
 * reads one node, and the key bytes only when the 16-byte prefixes tie (keys of more than 16 bytes with
 * a common prefix); the ConcurrentSkipListMap of cells it replaces read an index node, a node, a Cell
 * and the chunk for every comparison, and a profile of a fill had 82% of the writer's samples there.
 *
 * <p>Node layout (longs): {@code [0] seq [1] meta: valueLength (high 32 bits, -1 for a tombstone) |
 * keyLength (16) | kind (8) | height (8) [2] data address (key, then value) [3] key bytes 0-7, [4] key
 * bytes 8-15 (big-endian, zero-padded) [5..] height links (node addresses, 0 = none)}.
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
    private static final int META = 1;
    private static final int DATA = 2;
    private static final int PREFIX = 3;
    private static final int LINKS = 5;

    private static final VarHandle LINK = MethodHandles.arrayElementVarHandle(long[].class);

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
        long p0 = Bytes.prefixAt(keyBuf, keyOff, keyLen, 0);
        long p1 = Bytes.prefixAt(keyBuf, keyOff, keyLen, 8);
        int top = height - 1;
        long x = NodeArena.NULL;
        long next = NodeArena.NULL;
        for (int level = top; level >= 0; level--) {
            next = next(x, level);
            while (next != NodeArena.NULL && compare(next, keyBuf, keyOff, keyLen, p0, p1, seq) < 0) {
                x = next;
                next = next(x, level);
            }
            splice[level] = x;
        }
        if (next != NodeArena.NULL && compare(next, keyBuf, keyOff, keyLen, p0, p1, seq) == 0) {
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
        long data = arena.allocateData(keyLen + storedValue);
        byte[] d = arena.data(data);
        int at = NodeArena.offset(data);
        System.arraycopy(keyBuf, keyOff, d, at, keyLen);
        if (!tombstone) {
            System.arraycopy(valueBuf, valueOff, d, at + keyLen, valueLen);
        }
        long node = arena.allocateNode(LINKS + h);
        long[] n = arena.nodes(node);
        int i = NodeArena.offset(node);
        n[i + SEQ] = seq;
        n[i + META] = ((long) (tombstone ? -1 : valueLen) << 32) | ((long) keyLen << 16) | ((kind & 0xff) << 8) | h;
        n[i + DATA] = data;
        n[i + PREFIX] = p0;
        n[i + PREFIX + 1] = p1;
        for (int level = 0; level < h; level++) {
            n[i + LINKS + level] = next(splice[level], level);
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
            return (long) LINK.getAcquire(head, level);
        }
        return (long) LINK.getAcquire(arena.nodes(node), NodeArena.offset(node) + LINKS + level);
    }

    private void setNext(long node, int level, long to) {
        if (node == NodeArena.NULL) {
            LINK.setRelease(head, level, to);
        } else {
            LINK.setRelease(arena.nodes(node), NodeArena.offset(node) + LINKS + level, to);
        }
    }

    /**
     * The node's internal key against (key, seq), whose first 16 bytes are {@code p0, p1}: user key
     * ascending, then sequence descending. Zero-padded prefixes that tie on keys of at most 16 bytes
     * mean the shorter key is a prefix of the longer, so lengths decide.
     */
    private int compare(long node, byte[] key, int keyOff, int keyLen, long p0, long p1, long seq) {
        long[] n = arena.nodes(node);
        int i = NodeArena.offset(node);
        int c = Long.compareUnsigned(n[i + PREFIX], p0);
        if (c == 0) {
            c = Long.compareUnsigned(n[i + PREFIX + 1], p1);
        }
        if (c == 0) {
            int kl = keyLength(n[i + META]);
            if (kl <= 16 && keyLen <= 16) {
                c = Integer.compare(kl, keyLen);
            } else {
                long data = n[i + DATA];
                int at = NodeArena.offset(data);
                c = Arrays.compareUnsigned(arena.data(data), at, at + kl, key, keyOff, keyOff + keyLen);
            }
        }
        return c != 0 ? c : Long.compare(seq, n[i + SEQ]);
    }

    /** The first node at or after (key, seq), or NULL. */
    long seek(byte[] key, int keyOff, int keyLen, long seq) {
        long p0 = Bytes.prefixAt(key, keyOff, keyLen, 0);
        long p1 = Bytes.prefixAt(key, keyOff, keyLen, 8);
        long x = NodeArena.NULL;
        for (int level = height - 1; ; ) {
            long next = next(x, level);
            if (next != NodeArena.NULL && compare(next, key, keyOff, keyLen, p0, p1, seq) < 0) {
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
        long p0 = Bytes.prefixAt(key, keyOff, keyLen, 0);
        long p1 = Bytes.prefixAt(key, keyOff, keyLen, 8);
        long x = NodeArena.NULL;
        for (int level = height - 1; ; ) {
            long next = next(x, level);
            int c = next == NodeArena.NULL ? 1 : compare(next, key, keyOff, keyLen, p0, p1, seq);
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
        long data = dataAddress(node);
        return seekBefore(arena.data(data), NodeArena.offset(data), keyLength(meta(node)), sequence(node), false);
    }

    long meta(long node) {
        return arena.nodes(node)[NodeArena.offset(node) + META];
    }

    long sequence(long node) {
        return arena.nodes(node)[NodeArena.offset(node) + SEQ];
    }

    long dataAddress(long node) {
        return arena.nodes(node)[NodeArena.offset(node) + DATA];
    }

    byte[] data(long dataAddress) {
        return arena.data(dataAddress);
    }

    static int keyLength(long meta) {
        return (int) (meta >>> 16) & 0xffff;
    }

    /** The value's length, -1 for a tombstone. */
    static int valueLength(long meta) {
        return (int) (meta >> 32);
    }

    static int kind(long meta) {
        return (int) (meta >>> 8) & 0xff;
    }

    @Override
    public boolean get(byte[] key, long seq, Lookup out) {
        long node = seek(key, 0, key.length, seq);
        if (node == NodeArena.NULL) {
            return false;
        }
        long meta = meta(node);
        long data = dataAddress(node);
        byte[] d = arena.data(data);
        int at = NodeArena.offset(data);
        int kl = keyLength(meta);
        if (!Arrays.equals(d, at, at + kl, key, 0, key.length)) {
            return false;
        }
        // The value stays in the chunk until the reader, still inside its view, copies it out once.
        int vl = valueLength(meta);
        out.set(sequence(node), kind(meta), vl < 0 ? null : d, at + kl, Math.max(vl, 0));
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
                long meta = meta(node);
                long data = dataAddress(node);
                byte[] d = arena.data(data);
                int at = NodeArena.offset(data);
                int kl = keyLength(meta);
                int vl = valueLength(meta);
                Cell c = new Cell(d, at, kl, vl < 0 ? null : d, at + kl, Math.max(vl, 0), sequence(node), kind(meta));
                node = after(node);
                return c;
            }
        };
    }

    @Override
    public long dataSize() {
        return counters.dataSize();
    }

    /** The bytes of the nodes, keys and values (the flush trigger reads data bytes). */
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
