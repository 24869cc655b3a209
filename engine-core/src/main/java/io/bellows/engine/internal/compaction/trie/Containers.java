package io.bellows.engine.internal.compaction.trie;

/**
 * Container ids and table placements. A container is named by its level and trie path (the first
 * {@code 3 * level} hash bits); a table's placement packs its container with its data volume so that
 * picking compactions needs no I/O:
 *
 * <pre>
 *  placement: 63 ............ 32 | 31 .. 28 | 27 .. 24 | 23 ........ 0
 *             data volume in KiB | 0        | level    | path
 * </pre>
 */
final class Containers {
    static final long ROOT = 0;

    private Containers() {}

    static long id(int level, int path) {
        return (long) level << 24 | path;
    }

    static int level(long id) {
        return (int) (id >>> 24) & 0xf;
    }

    static int path(long id) {
        return (int) (id & 0xffffff);
    }

    static long child(long id, int child) {
        return id(level(id) + 1, path(id) << 3 | child);
    }

    /** The eight children of {@code id}. */
    static long[] children(long id) {
        long[] out = new long[8];
        for (int i = 0; i < 8; i++) {
            out[i] = child(id, i);
        }
        return out;
    }

    static long parent(long id) {
        return id(level(id) - 1, path(id) >>> 3);
    }

    /** The container at {@code level} (at or above {@code id}'s) on {@code id}'s path. */
    static long ancestor(long id, int level) {
        return id(level, path(id) >>> (3 * (level(id) - level)));
    }

    /** Whether {@code id} lies strictly below {@code top}, on a path through it. */
    static boolean isBelow(long id, long top) {
        return level(id) > level(top) && ancestor(id, level(top)) == top;
    }

    static long placement(long id, long dataBytes) {
        long kib = Math.min(0xffffffffL, (dataBytes + 1023) >>> 10);
        return kib << 32 | id;
    }

    static long containerOf(long placement) {
        return placement & 0xffffffffL;
    }

    static long dataBytesOf(long placement) {
        return (placement >>> 32) << 10;
    }

    static String name(long id) {
        StringBuilder sb = new StringBuilder("/");
        int level = level(id);
        for (int i = level - 1; i >= 0; i--) {
            sb.append((path(id) >>> (3 * i)) & 7);
        }
        return sb.toString();
    }
}
