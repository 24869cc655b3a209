package io.bellows.engine.internal.table;

/**
 * Constants of the SSTable format (spec: docs/formats/sstable.md). A file is
 *
 * <pre>
 * [file header 16 B] [data block]* [filter block]? [properties block] [index block] [footer 52 B]
 * </pre>
 *
 * and every block is followed by a 5-byte trailer: a type byte and the masked CRC32C of the block
 * contents plus the type byte.
 */
final class TableFormat {
    /** Format generation written by this build: 2 adds compressed data blocks. It reads 1 and 2. */
    static final int VERSION = 2;
    static final int MIN_READ_VERSION = 1;
    static final int MAX_READ_VERSION = 2;
    /** The first version whose data blocks may be compressed. */
    static final int COMPRESSED_BLOCKS_VERSION = 2;

    /** Block type: contents stored as is. */
    static final byte BLOCK_TYPE_RAW = 0;
    /** Block type (version 2): varint32 raw length, then an LZ4 block. */
    static final byte BLOCK_TYPE_LZ4 = 1;
    /** Block type (version 2): varint32 raw length, then a Zstandard frame. */
    static final byte BLOCK_TYPE_ZSTD = 2;
    static final int BLOCK_TRAILER_LENGTH = 5;

    /** Entries of a block live in contents bytes [0, restarts offset); keys carry an 8-byte trailer. */
    static final int KEY_TRAILER_LENGTH = 8;

    /** Index blocks restart at every entry: their seek is then a plain binary search. */
    static final int INDEX_RESTART_INTERVAL = 1;

    /** "BLWTABLE" read as a little-endian long; distinct from the file header magic. */
    static final long FOOTER_MAGIC = 0x454c4241_54574c42L;

    static final int FOOTER_FILTER_OFFSET = 0;
    static final int FOOTER_PROPERTIES_OFFSET = 12;
    static final int FOOTER_INDEX_OFFSET = 24;
    static final int FOOTER_VERSION_OFFSET = 36;
    static final int FOOTER_CRC_OFFSET = 40;
    static final int FOOTER_MAGIC_OFFSET = 44;
    static final int FOOTER_LENGTH = 52;

    /** Largest block (contents plus trailer) a reader accepts; keeps every block in one Java array. */
    static final int MAX_BLOCK_LENGTH = Integer.MAX_VALUE - 16;

    private TableFormat() {}
}
