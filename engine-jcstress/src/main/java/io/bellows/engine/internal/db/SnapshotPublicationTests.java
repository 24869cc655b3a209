package io.bellows.engine.internal.db;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStoreRig;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Snapshot-list publication ({@link SnapshotList}, {@code ReadPath.snapshot()}): a snapshot registered
 * while a compaction decides which versions to drop must keep the version it reads.
 *
 * <p>The invariant: a compaction reads the published sequence P first and the snapshot list L after;
 * {@code ReadPath.snapshot()} reads the published sequence and adds it to L in one step under L's lock. So
 * a snapshot S missing from L registered after L was read, and read the published sequence after P was
 * read: S &ge; P. In-memory compaction ({@link io.bellows.engine.internal.memstore.spi.Retention}) keeps,
 * besides L's stripes, the newest version at or below P and every version above P, which is what such an S
 * reads. A disk flush or compaction ({@link VersionPruner}) only sees data published before it read L (the
 * MemStore is switched by the write leader between groups, tables hold only flushed data), so P is at
 * least every sequence it holds and the newest version of each key is kept for such an S.
 *
 * <p>Before the actors: {@code k}@1 written and published; {@code k}@2 written (its own pipeline
 * segment) but not yet published. One actor takes a snapshot and reads {@code k} at it; the other
 * publishes sequence 2 and then drops versions.
 */
public final class SnapshotPublicationTests {
    private SnapshotPublicationTests() {}

    /** The MemStore and published sequence every variant starts from. */
    abstract static class Base {
        final EngineRig engine = new EngineRig();
        Snapshot snapshot;

        Base() {
            engine.memstore.put(MemStoreRig.KEY, 1);
            engine.publish(1);
            engine.memstore.put(MemStoreRig.KEY, 2);
        }

        /** What {@code k} reads as at {@code s}: its sequence when the value is that version's, else 0 or -1. */
        int readAt(Snapshot s) {
            byte[] v = engine.reads.get(MemStoreRig.KEY, ReadOptions.at(s));
            if (v == null) {
                return MemStoreRig.ABSENT;
            }
            for (long seq = 1; seq <= 2; seq++) {
                if (Arrays.equals(v, MemStoreRig.value(seq))) {
                    return (int) seq;
                }
            }
            return MemStoreRig.CORRUPT;
        }

        void cleanUp() {
            snapshot.close();
            engine.memstore.store.close();
        }
    }

    /**
     * r1: the snapshot's sequence; r2: what {@code k} reads as at it (the version's sequence, 0 for none).
     *
     * <p>Forbidden: (1, 0), a snapshot at 1 the in-memory compaction did not see, so it dropped
     * {@code k}@1 under it; (2, 1) or (1, 2), a snapshot reading another version than the newest at or
     * below its sequence.
     */
    @JCStressTest
    @Description("A snapshot taken during an in-memory compaction keeps the version it reads")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "snapshot at 1, seen by the compaction: k@1 kept")
    @Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "snapshot at 2 (seen or not): reads k@2")
    @Outcome(expect = FORBIDDEN, desc = "the snapshot's version was dropped, or it reads another version")
    @State
    public static class InMemoryCompaction extends Base {
        @Actor
        public void actor1(II_Result r) {
            snapshot = engine.reads.snapshot();
            r.r1 = (int) snapshot.sequence();
            r.r2 = readAt(snapshot);
        }

        @Actor
        public void actor2() {
            engine.publish(2);
            engine.memstore.compactions.runAll();
        }

        @Arbiter
        public void arbiter() {
            cleanUp();
        }
    }

    /**
     * The version decision of a disk flush (and of a disk compaction: both feed entries to a
     * {@link VersionPruner} made from the snapshot list they read), taken after the group at sequence 2
     * was published. r1: the snapshot's sequence; r2: which versions of {@code k} the pruner keeps (bit 0:
     * {@code k}@1, bit 1: {@code k}@2); r3: what {@code k} reads as at the snapshot in the MemStore (the
     * flush has not cleared it); r4: snapshots listed after the snapshot is closed.
     *
     * <p>Forbidden: (1, 2, ...), a snapshot at 1 registered but missed by the flush, so the table it would
     * read after the MemStore snapshot is cleared lacks {@code k}@1.
     */
    @JCStressTest
    @Description("A snapshot taken during a disk flush keeps the version it reads in the flushed table")
    @Outcome(id = "1, 3, 1, 0", expect = ACCEPTABLE, desc = "snapshot at 1, seen by the flush: both versions kept")
    @Outcome(id = "2, 2, 2, 0", expect = ACCEPTABLE, desc = "snapshot at 2 (seen or not): only k@2 needed")
    @Outcome(expect = FORBIDDEN, desc = "the snapshot's version was dropped by the flush")
    @State
    public static class FlushPruning extends Base {
        @Actor
        public void actor1(IIII_Result r) {
            snapshot = engine.reads.snapshot();
            r.r1 = (int) snapshot.sequence();
            r.r3 = readAt(snapshot);
        }

        @Actor
        public void actor2(IIII_Result r) {
            engine.publish(2);
            VersionPruner pruner = new VersionPruner(engine.snapshots.sequences(), null);
            int kept = 0;
            if (pruner.keep(MemStoreRig.KEY, 2, InternalKeys.KIND_PUT)) {
                kept |= 2;
            }
            if (pruner.keep(MemStoreRig.KEY, 1, InternalKeys.KIND_PUT)) {
                kept |= 1;
            }
            r.r2 = kept;
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            cleanUp();
            r.r4 = engine.snapshots.size();
        }
    }

    /**
     * Two snapshots at the same sequence: one is closed while the other is taken. r1: the new snapshot's
     * sequence; r2: snapshots listed after both actors; r3: whether the list still has the new one's
     * sequence (1) or not (0); r4: snapshots listed once it is closed too.
     *
     * <p>Forbidden: r2 = 0 or r3 = 0, the close removed the new snapshot's registration (the list is a
     * multiset: each snapshot counts); r4 non-zero, a registration outlived its snapshot.
     */
    @JCStressTest
    @Description("Closing a snapshot never unregisters another one taken at the same sequence")
    @Outcome(id = "5, 1, 1, 0", expect = ACCEPTABLE, desc = "the new snapshot stays registered until closed")
    @Outcome(expect = FORBIDDEN, desc = "a live snapshot unregistered, or a closed one still listed")
    @State
    public static class ReleaseVsTake {
        final EngineRig engine = new EngineRig();
        final Snapshot first;
        Snapshot second;

        public ReleaseVsTake() {
            engine.publish(5);
            first = engine.reads.snapshot();
        }

        @Actor
        public void actor1() {
            first.close();
        }

        @Actor
        public void actor2(IIII_Result r) {
            second = engine.reads.snapshot();
            r.r1 = (int) second.sequence();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r2 = engine.snapshots.size();
            long[] live = engine.snapshots.sequences();
            r.r3 = live.length == 1 && live[0] == second.sequence() ? 1 : 0;
            second.close();
            r.r4 = engine.snapshots.size();
            engine.memstore.store.close();
        }
    }
}
