package io.bellows.engine.internal.io;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;

/**
 * The 16-byte header every Bellows file starts with (spec: docs/formats/header.md):
 *
 * <pre>
 *  0       8        10        12          16
 *  +-------+--------+---------+-----------+
 *  | magic | kind   | version | crc32c    |
 *  | 8 B   | u16 LE | u16 LE  | masked,LE |
 *  +-------+--------+---------+-----------+
 * </pre>
 *
 * The CRC covers bytes 0..12. A reader checks magic, kind, CRC and that the version is one it reads,
 * so a file of another kind, another format generation or plain garbage is refused on open.
 */
public final class FileHeader {
    public static final int LENGTH = 16;
    /** "BELLOWS!" read as a little-endian long. */
    public static final long MAGIC = 0x2153574F_4c4c4542L;

    public static final int KIND_WAL = 1;
    public static final int KIND_MANIFEST = 2;
    public static final int KIND_SSTABLE = 3;
    public static final int KIND_CURRENT = 4;
    /** An LSM_TRIE hash table (docs/formats/htable.md). */
    public static final int KIND_HTABLE = 5;
    /** The index of a table whose entries point into WAL files (docs/formats/cl-table.md). */
    public static final int KIND_CLTABLE = 6;
    /** A trace of an engine's operations (docs/formats/trace.md); lives outside the store. */
    public static final int KIND_TRACE = 7;

    private FileHeader() {}

    public static byte[] encode(int kind, int version) {
        byte[] b = new byte[LENGTH];
        Coding.putLong(b, 0, MAGIC);
        Coding.putShort(b, 8, kind);
        Coding.putShort(b, 10, version);
        Coding.putInt(b, 12, Checksums.maskedCrc32c(b, 0, 12));
        return b;
    }

    /**
     * Verifies the header at {@code b[off..off+16)} and returns its version.
     *
     * @throws CorruptionException naming {@code file} if the header is short, damaged, of another kind,
     *     or of a version outside {@code [minVersion, maxVersion]}
     */
    public static int check(byte[] b, int off, int len, Path file, int kind, int minVersion, int maxVersion) {
        if (len < LENGTH) {
            throw new CorruptionException(file, 0, "file too short for a header (" + len + " bytes)");
        }
        if (Coding.getLong(b, off) != MAGIC) {
            throw new CorruptionException(file, 0, "bad magic: not a Bellows file");
        }
        if (Checksums.unmask(Coding.getInt(b, off + 12)) != Checksums.crc32c(b, off, 12)) {
            throw new CorruptionException(file, 0, "header checksum mismatch");
        }
        int actualKind = Coding.getShort(b, off + 8);
        if (actualKind != kind) {
            throw new CorruptionException(file, 8, "file kind " + actualKind + ", expected " + kind);
        }
        int version = Coding.getShort(b, off + 10);
        if (version < minVersion || version > maxVersion) {
            throw new CorruptionException(file, 10, "format version " + version + " is not supported (this build reads "
                    + minVersion + " to " + maxVersion + ")");
        }
        return version;
    }

    /** A header's kind and version, as tools that take any file read them. */
    public record Parsed(int kind, int version) {}

    /**
     * Verifies magic and checksum of the header at the start of {@code b} and returns its kind and
     * version, whatever they are.
     *
     * @throws CorruptionException naming {@code file} if the header is short or damaged
     */
    public static Parsed read(byte[] b, Path file) {
        int kind = b.length >= LENGTH ? Coding.getShort(b, 8) : -1;
        return new Parsed(kind, check(b, 0, b.length, file, kind, 0, 0xffff));
    }
}
