package io.bellows.engine.internal.compaction;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;

/**
 * What the default {@link CompactionScheme#get} needs per call (the candidate tables, their groups, a
 * probe), kept per thread so that a get allocates none of it: a get is the hot path, and these would
 * otherwise be three to five objects per call.
 */
final class GetScratch {
    private static final ThreadLocal<GetScratch> LOCAL = ThreadLocal.withInitial(GetScratch::new);

    final ArrayList<FileMeta> candidates = new ArrayList<>(8);
    final IntArrayList groupEnds = new IntArrayList(8);
    final Lookup probe = new Lookup();
    private boolean inUse;

    /** This thread's scratch, or a new one if a get of this thread is already using it. */
    static GetScratch acquire() {
        GetScratch s = LOCAL.get();
        if (s.inUse) {
            s = new GetScratch();
        }
        s.inUse = true;
        return s;
    }

    /** Clears what the get left (no table or block stays reachable from a thread) and frees the scratch. */
    void release() {
        candidates.clear();
        groupEnds.clear();
        probe.release();
        inUse = false;
    }
}
