package io.bellows.engine.offheap;

import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.wal.BatchAccess;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine logs a write group only once {@code hasRoomFor(encodedLength, count)} says yes, and adds it to
 * the MemStore after its WAL append: a group the pool accepted must then fit, or a logged write fails
 * (after the writer waited for memory nobody frees). Each shape takes the largest group the pool
 * accepts and adds it to an empty active segment.
 */
class RoomForWriteTest {
    private static final int DATA = 4096;
    private static final long LIMIT = 1 << 20;

    private static ChunkPool pool() {
        return new ChunkPool(new UnpooledByteBufAllocator(true), "unpooled", DATA, 1024, LIMIT, 0,
                TimeUnit.MILLISECONDS.toNanos(20));
    }

    private interface Op {
        void addTo(WriteBatch b, int i);
    }

    /** The largest group of ops the pool accepts must fit once added. */
    private static void assertAcceptedGroupFits(String shape, int perOpEncoded, Op op) {
        try (ChunkPool p = pool()) {
            WriteBatch b = new WriteBatch();
            // Grow until the encoded group is as large as the pool accepts.
            for (int i = 0; p.hasRoomFor(BatchAccess.encodedLength(b) + (long) perOpEncoded, b.count() + 1); i++) {
                op.addTo(b, i);
            }
            assertTrue(p.hasRoomFor(BatchAccess.encodedLength(b), b.count()), shape);
            OffHeapLayout layout = new OffHeapLayout(p);
            MutableSegment s = layout.newMutable();
            long[] seq = {1};
            try {
                assertDoesNotThrow(() -> b.forEach(new WriteBatch.Handler() {
                    @Override
                    public void put(byte[] key, byte[] value) {
                        s.add(key, seq[0]++, InternalKeys.KIND_PUT, value);
                    }

                    @Override
                    public void delete(byte[] key) {
                        s.add(key, seq[0]++, InternalKeys.KIND_DELETE, null);
                    }
                }), shape + ": " + b.count() + " ops, " + BatchAccess.encodedLength(b) + " encoded bytes were accepted");
                assertTrue(p.allocatedBytes() <= LIMIT, shape);
            } finally {
                s.memory().forEach(m -> m.release());
            }
        }
    }

    @Test
    void deletesOfEmptyKeysFit() {
        assertAcceptedGroupFits("deletes of the empty key", 2, (b, i) -> b.delete(new byte[0]));
    }

    @Test
    void putsOfOneByteKeysAndEmptyValuesFit() {
        assertAcceptedGroupFits("one-byte keys, empty values", 4, (b, i) -> b.put(new byte[] {(byte) i}, new byte[0]));
    }

    @Test
    void recordsJustUnderAnEighthOfAChunkFit() {
        // 6 + 1 + 500 = 507 <= DATA / 8 shares chunks: 8 per chunk, a 440-byte tail left in each.
        assertAcceptedGroupFits("507-byte records", 504, (b, i) -> b.put(new byte[] {(byte) i}, new byte[500]));
    }

    @Test
    void recordsJustOverAnEighthOfAChunkFit() {
        assertAcceptedGroupFits("jumbo records", 510, (b, i) -> b.put(new byte[] {(byte) i}, new byte[506]));
    }

    /**
     * Between the engine's check and its insert (the WAL append in between) an in-memory compaction
     * may build its output; while a reader pins the inputs, the output must not take the room the
     * accepted group was promised.
     */
    @Test
    void compactionBetweenTheCheckAndTheInsertLeavesTheGroupItsRoom() {
        try (ChunkPool p = pool()) {
            OffHeapLayout layout = new OffHeapLayout(p);
            // A pipeline segment of about 480 KB, pinned (by a reader's view, say) across its compaction.
            MutableSegment pinned = layout.newMutable();
            long seq = 1;
            for (int i = 0; i < 480; i++) {
                pinned.add(("p" + i).getBytes(), seq++, InternalKeys.KIND_PUT, new byte[1000]);
            }
            WriteBatch group = new WriteBatch();
            for (int i = 0; p.hasRoomFor(BatchAccess.encodedLength(group) + 1010L, group.count() + 1); i++) {
                group.put(("w" + i).getBytes(), new byte[1000]);
            }
            assertTrue(p.hasRoomFor(BatchAccess.encodedLength(group), group.count()));
            // The group is logged now; meanwhile the compaction runs, or gives up if it would take the room.
            io.bellows.engine.internal.memstore.spi.Compacted c = null;
            try {
                c = layout.compact(java.util.List.of(pinned), new io.bellows.engine.internal.memstore.spi.Retention(new long[0], seq));
            } catch (io.bellows.engine.MemoryLimitException e) {
                // an aborted compaction leaves the pipeline as it was
            }
            MutableSegment active = layout.newMutable();
            long[] s = {seq};
            try {
                assertDoesNotThrow(() -> group.forEach(new WriteBatch.Handler() {
                    @Override
                    public void put(byte[] key, byte[] value) {
                        active.add(key, s[0]++, InternalKeys.KIND_PUT, value);
                    }

                    @Override
                    public void delete(byte[] key) {
                        active.add(key, s[0]++, InternalKeys.KIND_DELETE, null);
                    }
                }), group.count() + " puts of " + BatchAccess.encodedLength(group) + " encoded bytes were accepted");
            } finally {
                active.memory().forEach(m -> m.release());
                pinned.memory().forEach(m -> m.release());
                if (c != null) {
                    c.segment().memory().forEach(m -> m.release());
                }
            }
        }
    }
}
