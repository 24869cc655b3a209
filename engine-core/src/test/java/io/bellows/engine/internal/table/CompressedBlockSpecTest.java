package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Compression;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The compressed data blocks of docs/formats/sstable.md ("Compressed blocks"): the type byte in the
 * trailer, the varint raw length before the codec's output, a block that does not shrink stored raw,
 * damage inside a compressed block found by the CRC, and every entry read back.
 */
class CompressedBlockSpecTest {
    /** 100 entries k000..k099, each a 64-byte value of one repeated byte, in one 8 KiB block. */
    private static byte[] table(Compression codec, boolean randomValues) throws IOException {
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder b = new TableBuilder(file, Entries.PATH, 8192, 16, 10, codec);
        Random rnd = new Random(5);
        for (int i = 0; i < 100; i++) {
            b.add(String.format("k%03d", i).getBytes(), 1000 - i, InternalKeys.KIND_PUT, value(i, randomValues, rnd));
        }
        b.finish();
        return file.bytes();
    }

    private static byte[] value(int i, boolean random, Random rnd) {
        byte[] v = new byte[64];
        if (random) {
            rnd.nextBytes(v);
        } else {
            Arrays.fill(v, (byte) ('a' + i % 26));
        }
        return v;
    }

    private static TableReader open(byte[] bytes) throws IOException {
        return TableReader.open(new MemFiles.Readable(bytes), Entries.PATH, 1, new BlockCache(0), new EngineCounters());
    }

    /** The stored size of the only data block of {@code table}. */
    private static int firstBlockSize(byte[] table) throws IOException {
        try (TableReader t = open(table)) {
            assertEquals(1, t.dataBlocks());
            return (int) t.dataBytes() - TableFormat.BLOCK_TRAILER_LENGTH;
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"LZ4", "ZSTD"})
    void aCompressedBlockCarriesItsTypeAndRawLengthAndReadsBack(Compression codec) throws IOException {
        byte[] raw = table(Compression.NONE, false);
        byte[] packed = table(codec, false);
        int rawSize = firstBlockSize(raw);
        int size = firstBlockSize(packed);
        assertTrue(size < rawSize - rawSize / 8, codec + " stored " + size + " of " + rawSize + " bytes");
        int block = FileHeader.LENGTH;
        assertEquals(BlockCodec.type(codec), packed[block + size], "trailer type byte");
        int[] pos = {block};
        assertEquals(rawSize, Coding.getVarInt(packed, pos, block + size), "varint raw length prefix");
        assertEquals(codec == Compression.LZ4 ? 1 : 2, BlockCodec.type(codec));
        try (TableReader t = open(packed); InternalIterator it = t.iterator(false)) {
            int i = 0;
            for (it.seekToFirst(); it.isValid(); it.next(), i++) {
                assertArrayEquals(String.format("k%03d", i).getBytes(), it.key());
                assertArrayEquals(value(i, false, null), it.value());
            }
            assertEquals(100, i);
            Lookup out = new Lookup();
            assertTrue(t.get("k042".getBytes(), Long.MAX_VALUE >>> 8, false, out));
            assertArrayEquals(value(42, false, null), out.copyValue());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"LZ4", "ZSTD"})
    void aBlockThatDoesNotShrinkIsStoredRaw(Compression codec) throws IOException {
        byte[] packed = table(codec, true);
        int size = firstBlockSize(packed);
        assertEquals(firstBlockSize(table(Compression.NONE, true)), size);
        assertEquals(TableFormat.BLOCK_TYPE_RAW, packed[FileHeader.LENGTH + size]);
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"LZ4", "ZSTD"})
    void damageInsideACompressedBlockIsFoundNeverRead(Compression codec) throws IOException {
        byte[] packed = table(codec, false);
        int size = firstBlockSize(packed);
        for (int off = FileHeader.LENGTH; off < FileHeader.LENGTH + size + TableFormat.BLOCK_TRAILER_LENGTH; off++) {
            byte[] bad = packed.clone();
            bad[off] ^= 0x20;
            assertThrows(CorruptionException.class, () -> {
                try (TableReader t = open(bad); InternalIterator it = t.iterator(false)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        it.value();
                    }
                }
            }, "flip at " + off);
        }
    }
}
