package io.bellows.engine.internal.trace;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;

/**
 * The constants of the trace format (docs/formats/trace.md): the file starts with the common 16-byte
 * header and a 16-byte trace header, then blocks, each the records of one thread, framed by a length
 * and closed by a CRC so that a tail torn by a crash is recognized and left out.
 */
public final class TraceFormat {
    public static final int VERSION = 1;
    /** The common header plus the trace header. */
    public static final int HEADER_LENGTH = FileHeader.LENGTH + 16;
    /** Trace header flag: puts and batch puts carry their value bytes. */
    public static final int FLAG_VALUES = 1;
    /** Block framing: the u32 body length before the body and the u32 CRC after it. */
    public static final int BLOCK_OVERHEAD = 8;

    public static final int GET = 1;
    public static final int PUT = 2;
    public static final int DELETE = 3;
    public static final int WRITE = 4;
    public static final int MULTI_GET = 5;
    public static final int CURSOR_OPEN = 6;
    public static final int SEEK = 7;
    public static final int SEEK_FOR_PREV = 8;
    public static final int SEEK_TO_FIRST = 9;
    public static final int SEEK_TO_LAST = 10;
    public static final int NEXT = 11;
    public static final int PREV = 12;
    public static final int CURSOR_CLOSE = 13;

    /** Operation codes inside a WRITE record. */
    public static final int BATCH_DELETE = 0;
    public static final int BATCH_PUT = 1;

    /** CURSOR_OPEN bound flags. */
    public static final int LOWER_BOUND = 1;
    public static final int UPPER_BOUND = 2;

    private TraceFormat() {}

    /** The first {@link #HEADER_LENGTH} bytes of a trace file. */
    public static byte[] header(boolean values, long startEpochMillis) {
        byte[] b = new byte[HEADER_LENGTH];
        System.arraycopy(FileHeader.encode(FileHeader.KIND_TRACE, VERSION), 0, b, 0, FileHeader.LENGTH);
        int p = FileHeader.LENGTH;
        Coding.putInt(b, p, values ? FLAG_VALUES : 0);
        Coding.putLong(b, p + 4, startEpochMillis);
        Coding.putInt(b, p + 12, Checksums.maskedCrc32c(b, p, 12));
        return b;
    }

    /** The name of record kind {@code kind}, for messages and dumps. */
    public static String kindName(int kind) {
        return switch (kind) {
            case GET -> "get";
            case PUT -> "put";
            case DELETE -> "delete";
            case WRITE -> "write";
            case MULTI_GET -> "multiGet";
            case CURSOR_OPEN -> "cursorOpen";
            case SEEK -> "seek";
            case SEEK_FOR_PREV -> "seekForPrev";
            case SEEK_TO_FIRST -> "seekToFirst";
            case SEEK_TO_LAST -> "seekToLast";
            case NEXT -> "next";
            case PREV -> "prev";
            case CURSOR_CLOSE -> "cursorClose";
            default -> "kind " + kind;
        };
    }
}
