package io.bellows.engine.offheap;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.memstore.MemStoreRig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Reference counts of off-heap chunk memory ({@link PooledChunks}, here an {@link OffHeapMslab} with one
 * data chunk) over the OFF_HEAP layout's bounded {@link ChunkPool}, made as the layout makes it (netty's
 * pooled direct allocator). The last release gives the chunks back to the pool; closing the pool then
 * returns every free chunk to the allocator.
 *
 * <p>r1: chunks the pool counts as held after the actors; r2: chunks it keeps free; r3: bytes still
 * allocated once every reference is gone and the pool is closed.
 */
public final class PooledChunksRefCountTests {
    private PooledChunksRefCountTests() {}

    /** The state shared by the variants: one MSLAB with one chunk and two references to it. */
    abstract static class Base {
        final ChunkPool pool = OffHeapLayoutProvider.pool(
                MemStoreRig.options(InMemoryCompaction.EAGER, MemoryLayout.OFF_HEAP, 4), true);
        final OffHeapMslab mslab = new OffHeapMslab(pool, true);

        Base() {
            byte[] value = MemStoreRig.value(1);
            mslab.append(MemStoreRig.KEY, 0, MemStoreRig.KEY.length, value, 0, value.length);
            mslab.retain();
        }

        void counts(III_Result r) {
            r.r1 = (int) pool.chunksInUse();
            r.r2 = (int) pool.chunksFree();
        }

        void closePool(III_Result r) {
            pool.close();
            r.r3 = (int) pool.allocatedBytes();
        }
    }

    /**
     * Forbidden: the chunk given back twice (it would sit twice in the free list, and two segments would
     * write into it) or never (held forever: the bytes stay allocated after close).
     */
    @JCStressTest
    @Description("Two concurrent last releases of off-heap chunks give them back exactly once")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "one release gave the chunk back; close freed it")
    @Outcome(expect = FORBIDDEN, desc = "chunk given back twice or never")
    @State
    public static class ReleaseVsRelease extends Base {
        @Actor
        public void actor1() {
            mslab.release();
        }

        @Actor
        public void actor2() {
            mslab.release();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            counts(r);
            closePool(r);
        }
    }

    /**
     * Forbidden: the chunk back in the pool while the handed-on reference still holds it (r1 = 0), or any
     * bytes left allocated once that reference goes too.
     */
    @JCStressTest
    @Description("A retain racing the other holder's release keeps off-heap chunks until the last reference goes")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the handed-on reference kept the chunk; its release freed it")
    @Outcome(expect = FORBIDDEN, desc = "chunk recycled while referenced, or leaked")
    @State
    public static class RetainVsRelease extends Base {
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
        public void arbiter(III_Result r) {
            counts(r);
            mslab.release();
            closePool(r);
        }
    }
}
