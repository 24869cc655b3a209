package io.bellows.engine.internal.util;

import java.util.zip.CRC32C;

/**
 * CRC32C over byte ranges. Stored checksums are masked (as in LevelDB) so that a CRC computed over
 * data that itself embeds CRCs does not degenerate.
 */
public final class Checksums {
    private static final int MASK_DELTA = 0xa282ead8;
    private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

    private Checksums() {}

    public static int crc32c(byte[] b, int off, int len) {
        CRC32C c = CRC.get();
        c.reset();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    /** CRC32C of a one-byte prefix followed by {@code b[off, off+len)}. */
    public static int crc32c(byte prefix, byte[] b, int off, int len) {
        CRC32C c = CRC.get();
        c.reset();
        c.update(prefix);
        c.update(b, off, len);
        return (int) c.getValue();
    }

    public static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    public static int unmask(int masked) {
        int rot = masked - MASK_DELTA;
        return (rot >>> 17) | (rot << 15);
    }

    public static int maskedCrc32c(byte[] b, int off, int len) {
        return mask(crc32c(b, off, len));
    }
}
