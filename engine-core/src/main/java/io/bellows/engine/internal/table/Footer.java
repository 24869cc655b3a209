package io.bellows.engine.internal.table;

import static io.bellows.engine.internal.table.TableFormat.FOOTER_CRC_OFFSET;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_FILTER_OFFSET;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_INDEX_OFFSET;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_LENGTH;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_MAGIC;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_MAGIC_OFFSET;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_PROPERTIES_OFFSET;
import static io.bellows.engine.internal.table.TableFormat.FOOTER_VERSION_OFFSET;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;

/**
 * The fixed-size record at the end of a table: where its meta blocks are, which format generation
 * wrote it, and a magic number. Fixed size so a reader finds it from the file length alone; its own
 * CRC because it is not inside any block.
 *
 * <pre>
 *  0                12                24             36        40       44       52
 *  +----------------+----------------+--------------+---------+--------+--------+
 *  | filter handle  | props handle   | index handle | version | crc32c | magic  |
 *  | u64 off,u32 len| u64 off,u32 len| u64, u32     | u32 LE  | masked | u64 LE |
 *  +----------------+----------------+--------------+---------+--------+--------+
 * </pre>
 *
 * The CRC covers bytes [0, 40). A table without a filter stores the filter handle as (0, 0).
 *
 * @param filter the filter block, or null when the table has none
 */
record Footer(BlockHandle filter, BlockHandle properties, BlockHandle index, int version) {
    private static final BlockHandle NO_FILTER = new BlockHandle(0, 0);

    byte[] encode() {
        byte[] b = new byte[FOOTER_LENGTH];
        (filter == null ? NO_FILTER : filter).encodeFixed(b, FOOTER_FILTER_OFFSET);
        properties.encodeFixed(b, FOOTER_PROPERTIES_OFFSET);
        index.encodeFixed(b, FOOTER_INDEX_OFFSET);
        Coding.putInt(b, FOOTER_VERSION_OFFSET, version);
        Coding.putInt(b, FOOTER_CRC_OFFSET, Checksums.maskedCrc32c(b, 0, FOOTER_CRC_OFFSET));
        Coding.putLong(b, FOOTER_MAGIC_OFFSET, FOOTER_MAGIC);
        return b;
    }

    /**
     * Decodes and checks the footer of a {@code fileSize}-byte file: magic, CRC, version (equal to
     * the header's) and that the blocks lie in order, without overlap, between the header and the
     * footer, the index block ending where the footer starts.
     */
    static Footer decode(byte[] b, Path path, long fileSize, int headerVersion) {
        long at = fileSize - FOOTER_LENGTH;
        if (Coding.getLong(b, FOOTER_MAGIC_OFFSET) != FOOTER_MAGIC) {
            throw new CorruptionException(path, at + FOOTER_MAGIC_OFFSET, "bad table footer magic (truncated file?)");
        }
        if (Checksums.unmask(Coding.getInt(b, FOOTER_CRC_OFFSET)) != Checksums.crc32c(b, 0, FOOTER_CRC_OFFSET)) {
            throw new CorruptionException(path, at, "table footer checksum mismatch");
        }
        int version = Coding.getInt(b, FOOTER_VERSION_OFFSET);
        if (version != headerVersion) {
            throw new CorruptionException(path, at + FOOTER_VERSION_OFFSET,
                    "footer format version " + version + " differs from header version " + headerVersion);
        }
        BlockHandle filter = BlockHandle.decodeFixed(b, FOOTER_FILTER_OFFSET);
        BlockHandle properties = BlockHandle.decodeFixed(b, FOOTER_PROPERTIES_OFFSET);
        BlockHandle index = BlockHandle.decodeFixed(b, FOOTER_INDEX_OFFSET);
        long next = FileHeader.LENGTH;
        if (filter.equals(NO_FILTER)) {
            filter = null;
        } else {
            next = checkPlaced(filter, next, at, path, "filter");
        }
        next = checkPlaced(properties, next, at, path, "properties");
        checkPlaced(index, next, at, path, "index");
        if (index.end() != at) {
            throw new CorruptionException(path, at, "index block does not end where the footer starts");
        }
        return new Footer(filter, properties, index, version);
    }

    private static long checkPlaced(BlockHandle h, long from, long footerAt, Path path, String what) {
        if (h.offset() < from || h.offset() > footerAt || h.size() < 0 || h.size() > TableFormat.MAX_BLOCK_LENGTH
                || h.end() > footerAt) {
            throw new CorruptionException(path, footerAt, what + " block handle (" + h.offset() + ", " + h.size()
                    + ") lies outside [" + from + ", " + footerAt + ")");
        }
        return h.end();
    }
}
