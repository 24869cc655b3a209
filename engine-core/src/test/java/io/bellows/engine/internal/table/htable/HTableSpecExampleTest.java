package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Pins the worked example of docs/formats/htable.md ("Worked example") byte for byte. */
class HTableSpecExampleTest {
    @Test
    void bucketOfTheWorkedExample() {
        PackedItems items = new PackedItems();
        IntArrayList bucket3 = new IntArrayList();
        // lo's high halves give ranks 8 ("ab") and 16 ("c") in bucket 3 (rotated left by 3).
        bucket3.add(items.add("c".getBytes(), 0, 1, null, 0, 0, 9, InternalKeys.KIND_DELETE, 0, 2L << 32));
        bucket3.add(items.add("ab".getBytes(), 0, 2, "xyz".getBytes(), 0, 3, 5, InternalKeys.KIND_PUT, 0, 1L << 32));
        byte[] bucket = new byte[HTableFormat.BUCKET_SIZE];
        HTableWriter.encodeBucket(items, 3, bucket3, 7, 0x12345678, bucket);

        assertEquals("0200" + "020405616278797a" + "01000963", Bytes.toHex(Arrays.copyOfRange(bucket, 0, 14)));
        byte[] zeroes = new byte[HTableFormat.SOURCE_OFFSET - 14];
        assertEquals(Bytes.toHex(zeroes), Bytes.toHex(Arrays.copyOfRange(bucket, 14, HTableFormat.SOURCE_OFFSET)));
        assertEquals("0300" + "0700" + "78563412" + "61229e9c",
                Bytes.toHex(Arrays.copyOfRange(bucket, HTableFormat.SOURCE_OFFSET, HTableFormat.BUCKET_SIZE)));
    }

    @Test
    void sizingAndColumnsOfTheWorkedExample() {
        assertEquals(62_046, HTableFormat.capacity(16));
        assertEquals(124_092, HTableFormat.capacity(32));
        assertEquals(32, HTableFormat.bucketsFor(2048, 100_000));
        long hi = 0x9c000000L;
        assertEquals(1248, KeyHash.bucket(hi, 2048));
        assertEquals(19, KeyHash.bucket(hi, 32));
        assertEquals(1248 / (2048 / 32), KeyHash.bucket(hi, 32));
    }

    @Test
    void windowsOfTheWorkedExample() {
        assertEquals(256, HTableFormat.windowFor(2048));
        byte[] varint = new byte[5];
        int n = Coding.putVarLong(varint, 0, HTableFormat.windowFor(2048));
        assertEquals("8002", Bytes.toHex(Arrays.copyOf(varint, n)));
        assertEquals(8, 2048 / HTableFormat.windowFor(2048));
        assertEquals(4, 1248 / HTableFormat.windowFor(2048));
        assertEquals(32, HTableFormat.windowFor(32));
    }
}
