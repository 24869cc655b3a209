package io.bellows.engine.internal.iter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A view's bytes in an array of exactly its length, reused per length up to the bound. */
class ExactScratchTest {
    @Test
    void holdsTheViewsBytesInAnArrayOfItsLength() {
        ExactScratch scratch = new ExactScratch();
        byte[] block = new byte[1000];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) (i * 31);
        }
        for (int len : new int[] {0, 1, 7, 16, 255, 256, 257, 600}) {
            for (int off : new int[] {0, 3, 1000 - len}) {
                byte[] got = scratch.of(new Slice().set(block, off, len));
                assertArrayEquals(Arrays.copyOfRange(block, off, off + len), got, "length " + len + " at " + off);
            }
        }
    }

    @Test
    void reusesOneArrayPerLengthUpToTheBound() {
        ExactScratch scratch = new ExactScratch();
        byte[] block = new byte[1000];
        byte[] first = scratch.of(new Slice().set(block, 1, 16));
        assertSame(first, scratch.of(new Slice().set(block, 5, 16)));
        assertNotSame(first, scratch.of(new Slice().set(block, 5, 17)));
        assertSame(first, scratch.of(new Slice().set(block, 9, 16)), "another length leaves this one's array");
        byte[] longest = scratch.of(new Slice().set(block, 1, ExactScratch.MAX_REUSED));
        assertSame(longest, scratch.of(new Slice().set(block, 2, ExactScratch.MAX_REUSED)));
        byte[] longer = scratch.of(new Slice().set(block, 1, ExactScratch.MAX_REUSED + 1));
        assertNotSame(longer, scratch.of(new Slice().set(block, 1, ExactScratch.MAX_REUSED + 1)), "not kept");
        byte[] whole = new byte[40];
        assertSame(whole, scratch.of(Slice.of(whole)), "a view of a whole array needs no copy");
    }
}
