package io.bellows.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreKeysTest {
    @Test
    void workedExampleOfTheFormatDocument() {
        assertArrayEquals(new byte[] {9, 'u', 's', 'e', 'r', 't', 'a', 'b', 'l', 'e', 'u', 's', 'e', 'r', '4', '2'},
                StoreKeys.of("usertable", "user42"));
        assertArrayEquals(new byte[] {9, 'u', 's', 'e', 'r', 't', 'a', 'b', 'l', 'f'}, StoreKeys.tableEnd("usertable"));
    }

    @Test
    void eachTablesKeysLieInItsOwnRangeInKeyOrder() {
        List<String> tables = List.of("", "a", "ab", "b", "usertable", "usertable2", "ü", "a".repeat(200));
        List<String> keys = List.of("", "k", "k0", "k1", "user1", "user10", "user2", "é", "\uffff");
        for (String t : tables) {
            byte[] start = StoreKeys.of(t, "");
            byte[] end = StoreKeys.tableEnd(t);
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = StoreKeys.of(t, keys.get(i));
                assertTrue(Arrays.compareUnsigned(start, k) <= 0 && Arrays.compareUnsigned(k, end) < 0, t + "/" + keys.get(i));
                if (i > 0) {
                    assertTrue(Arrays.compareUnsigned(StoreKeys.of(t, keys.get(i - 1)), k) < 0, t + ": " + keys.get(i - 1) + " < " + keys.get(i));
                }
                for (String other : tables) {
                    if (!other.equals(t)) {
                        byte[] o = StoreKeys.of(other, keys.get(i));
                        assertTrue(Arrays.compareUnsigned(o, start) < 0 || Arrays.compareUnsigned(o, end) >= 0,
                                other + "/" + keys.get(i) + " inside the range of table " + t);
                    }
                }
            }
        }
    }
}
