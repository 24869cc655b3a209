package io.bellows.engine.internal.version;

import com.carrotsearch.hppc.LongLongHashMap;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.StripedPins;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An immutable set of tables arranged in levels, as of one manifest state. Level 0 is ordered newest
 * first (by highest sequence); deeper levels are ordered by smallest key. What "level" means beyond
 * that (disjoint runs, guards, trie depth, tiers) is the compaction scheme's business.
 *
 * <p>Reference counted: the version set holds one reference on the current version; every cursor and
 * compaction holds one for as long as it reads, and a point read pins it on its thread's stripe instead
 * ({@link VersionSet#pinCurrent}, {@link StripedPins}), so concurrent gets share no counter. Files of a
 * version are not deleted while it is live: referenced or pinned.
 */
public final class Version {
    private final List<List<FileMeta>> levels;
    /**
     * Unboxed: FLSM's index checks every table's placement when it rebuilds a level, and each install
     * copies the map; boxed, the lookups were a tenth of FLSM's compaction thread at 20M entries.
     */
    private final LongLongHashMap placements;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final StripedPins pins = new StripedPins();
    /** Set by whoever finds the version out of references and pins first: it alone runs the callback. */
    private final AtomicBoolean unreferenced = new AtomicBoolean();
    private final Consumer<Version> onUnreferenced;
    /** Set once before the version is published (the volatile write of the current version orders it). */
    private Object schemeIndex;

    Version(List<List<FileMeta>> levels, LongLongHashMap placements, Consumer<Version> onUnreferenced) {
        this.levels = levels;
        this.placements = placements;
        this.onUnreferenced = onUnreferenced;
    }

    public int numLevels() {
        return levels.size();
    }

    public List<FileMeta> files(int level) {
        return levels.get(level);
    }

    /** The compaction scheme's index of this version ({@link SchemeState#index}), or null. */
    public Object schemeIndex() {
        return schemeIndex;
    }

    void schemeIndex(Object index) {
        schemeIndex = index;
    }

    /** The scheme-specific placement recorded for a table, 0 if none. */
    public long placement(long fileNumber) {
        return placements.getOrDefault(fileNumber, 0L);
    }

    LongLongHashMap placements() {
        return placements;
    }

    public long levelBytes(int level) {
        long sum = 0;
        for (FileMeta f : levels.get(level)) {
            sum += f.fileSize;
        }
        return sum;
    }

    public int totalFiles() {
        int n = 0;
        for (List<FileMeta> l : levels) {
            n += l.size();
        }
        return n;
    }

    /** Tables of {@code level} whose user-key range meets {@code [from, to]} (null = unbounded). */
    public List<FileMeta> overlapping(int level, byte[] from, byte[] to) {
        List<FileMeta> out = new ArrayList<>();
        for (FileMeta f : levels.get(level)) {
            if (f.overlaps(from, to)) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * In a level of disjoint tables sorted by key, the one table whose range may hold {@code key}, or
     * null. Binary search on largest keys.
     */
    public FileMeta findDisjoint(int level, byte[] key) {
        List<FileMeta> files = levels.get(level);
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.compare(files.get(mid).largestKey, key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo < files.size() && Bytes.compare(files.get(lo).smallestKey, key) <= 0) {
            return files.get(lo);
        }
        return null;
    }

    /** Takes a reference if the version is still live; false if it has already been released. */
    public boolean tryRetain() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    public void release() {
        int r = refs.decrementAndGet();
        if (r == 0) {
            unreferencedIfUnpinned();
        } else if (r < 0) {
            throw new IllegalStateException("version released more often than retained");
        }
    }

    /** A point read's pin on the calling thread's {@code stripe}; kept only if the version is still current. */
    void pin(int stripe) {
        pins.pin(stripe);
    }

    /** Drops a pin of {@link VersionSet#pinCurrent}, taken on {@code stripe} by the calling thread. */
    public void unpin(int stripe) {
        pins.unpin(stripe);
        if (refs.get() == 0) {
            unreferencedIfUnpinned();
        }
    }

    private void unreferencedIfUnpinned() {
        if (pins.none() && unreferenced.compareAndSet(false, true)) {
            onUnreferenced.accept(this);
        }
    }

    static List<List<FileMeta>> emptyLevels(int n) {
        List<List<FileMeta>> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            l.add(Collections.emptyList());
        }
        return l;
    }
}
