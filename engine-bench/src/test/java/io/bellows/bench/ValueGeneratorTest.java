package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ValueGeneratorTest {
    @Test
    void valuesHaveTheSizeAndVaryAndFollowTheSeed() {
        byte[] pool = ValueGenerator.pool(301, 100);
        assertArrayEquals(pool, ValueGenerator.pool(301, 100));
        ValueGenerator a = new ValueGenerator(pool, 100, new SplittableRandom(1));
        ValueGenerator b = new ValueGenerator(pool, 100, new SplittableRandom(1));
        byte[] first = a.next();
        assertEquals(100, first.length);
        assertArrayEquals(first, b.next());
        assertFalse(Arrays.equals(first, a.next()), "consecutive values differ");
        byte[] scratch = new byte[100];
        b.next(scratch);
        assertFalse(Arrays.equals(first, scratch));
    }

    @Test
    void emptyValuesWork() {
        ValueGenerator g = new ValueGenerator(ValueGenerator.pool(1, 0), 0, new SplittableRandom(1));
        assertEquals(0, g.next().length);
    }
}
