package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.MslabChunks;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Reference counts of on-heap MSLAB memory ({@link Mslab}) and the lock-free {@link ChunkPool} under it.
 * Each MemStore state that lists a segment holds one reference to its MSLAB; the last release gives the
 * chunks back to the pool, and the pool hands a chunk to one taker at a time.
 */
public final class MslabRefCountTests {
    private MslabRefCountTests() {}

    static Mslab mslabWithOneChunk(ChunkPool pool) {
        Mslab m = new Mslab(pool);
        byte[] value = MemStoreRig.value(1);
        m.copy(MemStoreRig.KEY, 0, MemStoreRig.KEY.length, value, 0, value.length, 1, InternalKeys.KIND_PUT);
        return m;
    }

    /**
     * Two holders (two MemStore states, or a state and the creator) release their references at once.
     * r1: chunks the pool counts as held afterwards; r2: chunks it keeps free.
     *
     * <p>Forbidden: (0, 2) or a negative count, the count reached zero twice and the chunk was given
     * back twice (two later MSLABs would share it); (1, 0), neither release saw zero and the chunk leaked.
     */
    @JCStressTest
    @Description("Two concurrent last releases of an MSLAB give its chunk back exactly once")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "one release recycled the chunk")
    @Outcome(expect = FORBIDDEN, desc = "chunk given back twice or never")
    @State
    public static class ReleaseVsRelease {
        final ChunkPool pool = new ChunkPool(MslabChunks.MIN_CHUNK, 4);
        final Mslab mslab = mslabWithOneChunk(pool);

        public ReleaseVsRelease() {
            mslab.retain();
        }

        @Actor
        public void actor1() {
            mslab.release();
        }

        @Actor
        public void actor2() {
            mslab.release();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = pool.chunksInUse();
            r.r2 = pool.chunksFree();
        }
    }

    /**
     * One holder hands a reference on (a new state built from a pinned one retains the memory of its
     * segments) and then drops its own, while the other holder drops its own. One reference is left.
     * r1, r2 as above.
     *
     * <p>Forbidden: (0, 1), the chunk went back to the pool while a state still lists its segment.
     */
    @JCStressTest
    @Description("A retain racing the other holder's release keeps the chunk until the last reference goes")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the handed-on reference keeps the chunk")
    @Outcome(expect = FORBIDDEN, desc = "chunk recycled while referenced")
    @State
    public static class RetainVsRelease {
        final ChunkPool pool = new ChunkPool(MslabChunks.MIN_CHUNK, 4);
        final Mslab mslab = mslabWithOneChunk(pool);

        public RetainVsRelease() {
            mslab.retain();
        }

        @Actor
        public void actor1() {
            mslab.retain();
            mslab.release();
        }

        @Actor
        public void actor2() {
            mslab.release();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = pool.chunksInUse();
            r.r2 = pool.chunksFree();
        }
    }

    /**
     * The pool (room for one free chunk, which holds chunk A) serves a take while chunk B is given back.
     * r1: what the take got (1: A, 2: B, 3: a new chunk); r2: chunks the pool counts as free afterwards;
     * r3: what a take after both got.
     *
     * <p>Forbidden: r3 equal to r1 for a pooled chunk (one chunk handed to two MSLABs), a free count that
     * disagrees with what the next take finds (1 but a new chunk, 0 but a pooled one), or a chunk that
     * was not free handed out.
     */
    @JCStressTest
    @Description("Lock-free chunk pool: a take racing a give hands each chunk to one taker, and counts agree")
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "take first: A taken, B kept free and taken next")
    @Outcome(id = "1, 0, 3", expect = ACCEPTABLE_INTERESTING, desc = "give counted first: the full pool let B go to the collector")
    @Outcome(expect = FORBIDDEN, desc = "chunk handed out twice, or free count wrong")
    @State
    public static class TakeVsGive {
        final ChunkPool pool = new ChunkPool(MslabChunks.MIN_CHUNK, 1);
        final byte[] a = pool.take();
        final byte[] b = pool.take();

        public TakeVsGive() {
            pool.give(a);
        }

        int which(byte[] c) {
            return c == a ? 1 : c == b ? 2 : 3;
        }

        @Actor
        public void actor1(III_Result r) {
            r.r1 = which(pool.take());
        }

        @Actor
        public void actor2() {
            pool.give(b);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r2 = pool.chunksFree();
            r.r3 = which(pool.take());
        }
    }
}
