package io.bellows.engine.internal.memstore;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MslabChunks;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Publication in NONE's inline skiplist ({@link InlineSkipListSegment}): the writer fills a node (header,
 * key prefix, key and value in the chunks) with plain stores and links it with a release store; a reader
 * that follows the link with an acquire load must see all of it. A reader that sees the node with a
 * stale key, sequence or value would return a wrong answer.
 */
public final class InlineSkipListPublicationTests {
    private InlineSkipListPublicationTests() {}

    static final byte[] OLD_KEY = "key-0000000000000001".getBytes();
    static final byte[] NEW_KEY = "key-0000000000000002".getBytes();

    /** The state both tests share: a list holding {@code OLD_KEY}@1, and the writer's insert of {@code NEW_KEY}@2. */
    abstract static class Base {
        final InlineSkipListSegment segment =
                new InlineSkipListSegment(new NodeArena(new ChunkPool(MslabChunks.MIN_CHUNK, 4)));
        final byte[] value = MemStoreRig.value(2);

        Base() {
            segment.add(OLD_KEY, 1, InternalKeys.KIND_PUT, MemStoreRig.value(1));
        }

        void insert() {
            segment.add(NEW_KEY, 2, InternalKeys.KIND_PUT, value);
        }
    }

    /**
     * r1: 1 if the reader's get found the new key; r2: 1 if what it found was the writer's whole entry
     * (sequence and value), 0 otherwise (and 0 when not found).
     *
     * <p>Forbidden: (1, 0), the node was reachable before its contents were visible.
     */
    @JCStressTest
    @Description("A get that reaches a node inserted concurrently sees its sequence and value")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the get ran before the node was linked")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the get found the whole entry")
    @Outcome(expect = FORBIDDEN, desc = "the get found a partly written node")
    @State
    public static class GetVsAdd extends Base {
        @Actor
        public void writer() {
            insert();
        }

        @Actor
        public void reader(II_Result r) {
            Lookup out = new Lookup();
            if (segment.get(NEW_KEY, InternalKeys.MAX_SEQUENCE, out)) {
                r.r1 = 1;
                r.r2 = out.sequence == 2 && Arrays.equals(out.copyValue(), value) ? 1 : 0;
            }
        }
    }

    /**
     * r1: entries an iterator walked from the first; r2: 1 if each had its writer's key, sequence and
     * value. Forbidden: a walk of two entries with the second incomplete (2, 0), or a walk that lost the
     * first entry.
     */
    @JCStressTest
    @Description("A scan running into a node inserted concurrently sees its key, sequence and value")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the scan ended before the new node was linked")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the scan saw both whole entries")
    @Outcome(expect = FORBIDDEN, desc = "a partly written node, or a lost one")
    @State
    public static class ScanVsAdd extends Base {
        @Actor
        public void writer() {
            insert();
        }

        @Actor
        public void reader(II_Result r) {
            int n = 0;
            boolean whole = true;
            try (InternalIterator it = segment.iterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    n++;
                    if (n == 1) {
                        whole &= Arrays.equals(it.key(), OLD_KEY) && it.sequence() == 1;
                    } else {
                        whole &= Arrays.equals(it.key(), NEW_KEY) && it.sequence() == 2
                                && Arrays.equals(it.value(), value);
                    }
                }
            }
            r.r1 = n;
            r.r2 = whole ? 1 : 0;
        }
    }
}
