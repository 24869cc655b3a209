package io.bellows.engine.internal.table;

import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.bellows.engine.Compression;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;

/**
 * Compression of SSTable data blocks (spec: docs/formats/sstable.md, "Compressed blocks"). A compressed
 * block's stored contents are the varint32 length of the raw contents, then the codec's output; the
 * trailer's type byte names the codec. The codecs are aircompressor's pure-Java LZ4 and Zstandard; the
 * framing is ours because the block format (length prefix, trailer, CRC over what is stored) is.
 *
 * <p>One instance per table writer (compressors keep state). Decompression uses one decompressor per
 * thread and codec, since aircompressor's Zstandard decompressor is not thread-safe.
 */
final class BlockCodec {
    /** A block is stored compressed only if that saves at least an eighth (RocksDB's rule). */
    private static final int MIN_SAVING_SHIFT = 3;

    private static final ThreadLocal<Decompressor> LZ4 = ThreadLocal.withInitial(Lz4Decompressor::new);
    private static final ThreadLocal<Decompressor> ZSTD = ThreadLocal.withInitial(ZstdDecompressor::new);

    private final Compression codec;
    private final Compressor compressor;
    private byte[] out = new byte[0];

    BlockCodec(Compression codec) {
        this.codec = codec;
        this.compressor = switch (codec) {
            case NONE -> null;
            case LZ4 -> new Lz4Compressor();
            case ZSTD -> new ZstdCompressor();
        };
    }

    /** The block type byte of {@code codec}. */
    static byte type(Compression codec) {
        return switch (codec) {
            case NONE -> TableFormat.BLOCK_TYPE_RAW;
            case LZ4 -> TableFormat.BLOCK_TYPE_LZ4;
            case ZSTD -> TableFormat.BLOCK_TYPE_ZSTD;
        };
    }

    /**
     * Compresses {@code raw[0, length)} into {@link #output()} with room for a trailer after it and returns
     * the stored length, or -1 if the block is to be stored raw (no codec, or too small a saving).
     */
    int compress(byte[] raw, int length) {
        if (compressor == null) {
            return -1;
        }
        int bound = 5 + compressor.maxCompressedLength(length) + TableFormat.BLOCK_TRAILER_LENGTH;
        if (out.length < bound) {
            out = new byte[bound];
        }
        int pos = Coding.putVarInt(out, 0, length);
        int n = compressor.compress(raw, 0, length, out, pos, out.length - pos);
        int stored = pos + n;
        return stored > length - (length >>> MIN_SAVING_SHIFT) ? -1 : stored;
    }

    /** The buffer {@link #compress} wrote into. */
    byte[] output() {
        return out;
    }

    byte type() {
        return type(codec);
    }

    /**
     * The raw contents of a block stored as {@code type} in {@code stored[0, length)}, read at
     * {@code offset} of {@code path}.
     *
     * @throws CorruptionException if the type is unknown or the compressed data does not decode to the
     *     length it states
     */
    static byte[] decompress(byte type, byte[] stored, int length, Path path, long offset) {
        return decompress(type, stored, length, path, offset, null);
    }

    /**
     * As {@link #decompress(byte, byte[], int, Path, long)}, into {@code into}'s raw array when it is not
     * null: the array returned may then be longer than the contents, whose length is
     * {@link BlockBuffers#rawLength()}.
     */
    static byte[] decompress(byte type, byte[] stored, int length, Path path, long offset, BlockBuffers into) {
        Decompressor d = switch (type) {
            case TableFormat.BLOCK_TYPE_LZ4 -> LZ4.get();
            case TableFormat.BLOCK_TYPE_ZSTD -> ZSTD.get();
            default -> throw new CorruptionException(path, offset + length, "unknown block type " + type);
        };
        int[] pos = {0};
        int rawLength;
        try {
            rawLength = Coding.getVarInt(stored, pos, length);
        } catch (RuntimeException e) {
            throw new CorruptionException(path, offset, "malformed length of a compressed block", e);
        }
        if (rawLength < 0 || rawLength > TableFormat.MAX_BLOCK_LENGTH) {
            throw new CorruptionException(path, offset, "compressed block states a length of " + rawLength);
        }
        byte[] raw = into == null ? new byte[rawLength] : into.raw(rawLength);
        int n;
        try {
            n = d.decompress(stored, pos[0], length - pos[0], raw, 0, rawLength);
        } catch (MalformedInputException | IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new CorruptionException(path, offset, "compressed block does not decode: " + e.getMessage(), e);
        }
        if (n != rawLength) {
            throw new CorruptionException(path, offset, "compressed block decodes to " + n + " bytes, not " + rawLength);
        }
        if (into != null) {
            into.rawLength = rawLength;
        }
        return raw;
    }
}
