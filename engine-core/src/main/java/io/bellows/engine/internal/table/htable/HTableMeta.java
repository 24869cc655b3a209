package io.bellows.engine.internal.table.htable;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a reader needs to open an HTable (docs/formats/htable.md): its format version, its metadata
 * block and, when the writer still holds it, its overflow area. Read from the file's header and footer
 * ({@link #read}, four reads with the reader's overflow area), or kept by the {@link HTableWriter} that
 * just wrote the table, which opens it with no read at all.
 */
public final class HTableMeta {
    final int version;
    final byte[] meta;
    /** File offset of the metadata block, for errors. */
    final long metaAt;
    /** The overflow area as written, or null: the reader reads it. */
    final byte[] overflowArea;

    HTableMeta(int version, byte[] meta, long metaAt, byte[] overflowArea) {
        this.version = version;
        this.meta = meta;
        this.metaAt = metaAt;
        this.overflowArea = overflowArea;
    }

    /** Reads and checks the header, footer and metadata block of the HTable in {@code file}. */
    static HTableMeta read(ReadableFile file, Path path) throws IOException {
        long size = file.size();
        if (size < HTableFormat.BUCKET_SIZE + HTableFormat.FOOTER_LENGTH) {
            throw new CorruptionException(path, 0, "file of " + size + " bytes is too short for an HTable");
        }
        byte[] header = file.read(0, FileHeader.LENGTH);
        int version = FileHeader.check(header, 0, header.length, path, FileHeader.KIND_HTABLE,
                HTableFormat.MIN_READ_VERSION, HTableFormat.VERSION);
        long footerAt = size - HTableFormat.FOOTER_LENGTH;
        byte[] footer = file.read(footerAt, HTableFormat.FOOTER_LENGTH);
        if (Coding.getLong(footer, 16) != HTableFormat.FOOTER_MAGIC) {
            throw new CorruptionException(path, footerAt + 16, "bad HTable footer magic");
        }
        long metaAt = Coding.getLong(footer, 0);
        int metaLength = Coding.getInt(footer, 8);
        if (metaAt < 0 || metaLength < 0 || metaAt + metaLength != footerAt) {
            throw new CorruptionException(path, footerAt, "HTable metadata at " + metaAt + " (+" + metaLength
                    + ") does not end at the footer");
        }
        byte[] meta = file.read(metaAt, metaLength);
        if (Checksums.unmask(Coding.getInt(footer, 12)) != Checksums.crc32c(meta, 0, metaLength)) {
            throw new CorruptionException(path, metaAt, "HTable metadata checksum mismatch");
        }
        return new HTableMeta(version, meta, metaAt, null);
    }
}
