package io.bellows.engine.internal.wal;

import io.bellows.engine.internal.io.FileHeader;

/**
 * Constants of the log framing shared by the WAL and the manifest (spec: docs/formats/wal.md), after
 * LevelDB's db/log_format.h. After the 16-byte {@link FileHeader} a log is a sequence of 32 KiB blocks;
 * each block holds chunks, each chunk a 7-byte header and a payload:
 *
 * <pre>
 *  0           4        6      7
 *  +-----------+--------+------+----------------+
 *  | crc32c    | length | type | payload        |
 *  | masked,LE | u16 LE | u8   | length bytes   |
 *  +-----------+--------+------+----------------+
 * </pre>
 *
 * The CRC covers the type byte and the payload. A record is one FULL chunk or FIRST, MIDDLE..., LAST.
 * A block tail too short for a chunk header is zero-filled, so every block starts at a chunk boundary.
 */
final class LogFormat {
    /** The only format version written and read. */
    static final int VERSION = 1;

    static final int BLOCK_SIZE = 32 * 1024;
    static final int CHUNK_HEADER_SIZE = 7;

    /** Type 0 is never written: a zeroed header (preallocated or never-written space) is not a chunk. */
    static final int FULL = 1;
    static final int FIRST = 2;
    static final int MIDDLE = 3;
    static final int LAST = 4;

    private LogFormat() {}

    /** Offset, within the file, of the end of the block holding {@code offset}. */
    static long blockEnd(long offset) {
        return FileHeader.LENGTH + ((offset - FileHeader.LENGTH) / BLOCK_SIZE + 1) * BLOCK_SIZE;
    }

    static String typeName(int type) {
        switch (type) {
            case FULL:
                return "FULL";
            case FIRST:
                return "FIRST";
            case MIDDLE:
                return "MIDDLE";
            case LAST:
                return "LAST";
            default:
                return "type " + type;
        }
    }
}
