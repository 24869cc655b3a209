package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFormat.BLOCK_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.CHUNK_HEADER_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.FIRST;
import static io.bellows.engine.internal.wal.LogFormat.FULL;
import static io.bellows.engine.internal.wal.LogFormat.LAST;
import static io.bellows.engine.internal.wal.LogFormat.MIDDLE;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads the records of a log file (WAL or manifest) written by {@link LogWriter}, telling a torn tail
 * from corruption (docs/formats/wal.md, "Reading and damage").
 *
 * <p>A crash can leave the last record of a log half written: a short chunk, a bad checksum, a FIRST
 * without its LAST, zeroes. None of that was acknowledged, so it is cut: {@link #next} returns null and
 * {@link #tornTailOffset} says where the valid prefix ends. Damage that is followed by any valid chunk
 * cannot be a torn tail (something was written after it), so it may hide complete records; it is
 * reported as a {@link CorruptionException} naming the damaged offset instead of silently dropping
 * those records. Every block starts at a chunk boundary, so past the damaged block only block starts
 * need checking.
 *
 * <p>Thread safety: none.
 */
public final class LogReader {
    private final byte[] buf;
    private final Path path;
    private final int end;
    /** Offset of the next chunk to read. */
    private int pos;
    private int validLength;
    private long lastRecordOffset = -1;
    private long tornTailOffset = -1;
    private boolean done;
    private CorruptionException failure;
    /** Payload of a fragmented record being assembled. */
    private byte[] fragments = new byte[0];
    private int fragmentsLength;

    /**
     * @throws CorruptionException if the file header is damaged, of another kind or another version. A file
     *     shorter than a header holding a prefix of one, or a file of only zero bytes, is a log torn
     *     before its header reached the disk: it reads as empty with a torn tail at 0.
     */
    public LogReader(byte[] fileContents, Path path, int fileKind) {
        this.buf = fileContents;
        this.path = path;
        this.end = fileContents.length;
        if (tornBeforeHeader(fileKind)) {
            done = true;
            tornTailOffset = 0;
            return;
        }
        FileHeader.check(buf, 0, end, path, fileKind, LogFormat.VERSION, LogFormat.VERSION);
        pos = FileHeader.LENGTH;
        validLength = FileHeader.LENGTH;
    }

    /**
     * Returns the next complete record, or null once the log ends (cleanly or at a torn tail).
     *
     * @throws CorruptionException naming the file and the damaged offset if damage is followed by a valid
     *     chunk; every later call throws it again
     */
    public byte[] next() {
        if (failure != null) {
            throw failure;
        }
        if (done) {
            return null;
        }
        int recordStart = -1;
        fragmentsLength = 0;
        while (true) {
            int chunk = pos;
            if (chunk >= end) {
                return endOfFile(recordStart);
            }
            int blockEnd = (int) Math.min(LogFormat.blockEnd(chunk), Integer.MAX_VALUE);
            if (blockEnd - chunk < CHUNK_HEADER_SIZE) {
                // A zero-filled block trailer carries nothing; the next block starts with a chunk.
                pos = blockEnd;
                continue;
            }
            if (end - chunk < CHUNK_HEADER_SIZE) {
                return damage(chunk, recordStart, (end - chunk) + "-byte chunk header cut by the end of the file");
            }
            int length = Coding.getShort(buf, chunk + 4);
            int type = buf[chunk + 6] & 0xff;
            int payload = chunk + CHUNK_HEADER_SIZE;
            if (length == 0 && type == 0 && Coding.getInt(buf, chunk) == 0) {
                return damage(chunk, recordStart, "zeroed chunk header");
            }
            if (payload + length > blockEnd) {
                return damage(chunk, recordStart, "chunk length " + length + " runs past the end of its block");
            }
            if (payload + length > end) {
                return damage(chunk, recordStart, "chunk length " + length + " runs past the end of the file");
            }
            int after = payload + length;
            if (Checksums.unmask(Coding.getInt(buf, chunk)) != Checksums.crc32c((byte) type, buf, payload, length)) {
                return damage(chunk, recordStart, "chunk checksum mismatch");
            }
            switch (type) {
                case FULL:
                    if (recordStart >= 0) {
                        return damage(recordStart, recordStart,
                                "record has no LAST chunk; a FULL chunk follows at " + chunk);
                    }
                    pos = after;
                    return complete(chunk, Arrays.copyOfRange(buf, payload, after));
                case FIRST:
                    if (recordStart >= 0) {
                        return damage(recordStart, recordStart,
                                "record has no LAST chunk; a FIRST chunk follows at " + chunk);
                    }
                    recordStart = chunk;
                    appendFragment(payload, length);
                    break;
                case MIDDLE:
                case LAST:
                    if (recordStart < 0) {
                        return damage(chunk, -1, LogFormat.typeName(type) + " chunk without a FIRST chunk");
                    }
                    appendFragment(payload, length);
                    if (type == LAST) {
                        pos = after;
                        return complete(recordStart, Arrays.copyOf(fragments, fragmentsLength));
                    }
                    break;
                default:
                    return damage(chunk, recordStart, "bad chunk type " + type);
            }
            pos = after;
        }
    }

    /** Offset of the first chunk of the record {@link #next} returned last, or -1 before the first. */
    public long lastRecordOffset() {
        return lastRecordOffset;
    }

    /** Offset after the last complete record returned (the header length if none, 0 if the header is torn). */
    public long validLength() {
        return validLength;
    }

    /**
     * Where the valid prefix ends if the log ended in a torn tail, or -1 if it ended cleanly (including at
     * a run of zeroes that starts at a record boundary: preallocated or zeroed space). Meaningful once
     * {@link #next} has returned null.
     */
    public long tornTailOffset() {
        return tornTailOffset;
    }

    private byte[] complete(int recordOffset, byte[] record) {
        lastRecordOffset = recordOffset;
        validLength = pos;
        return record;
    }

    private byte[] endOfFile(int recordStart) {
        done = true;
        pos = end;
        if (recordStart >= 0) {
            tornTailOffset = validLength;
        }
        return null;
    }

    /**
     * Decides between torn tail and corruption for damage at {@code offset}: corruption if a valid chunk
     * starts anywhere after it in its block (the damaged length field cannot say where the next chunk
     * starts, so every offset is a candidate) or at any later block start.
     */
    private byte[] damage(int offset, int recordStart, String description) {
        if (validChunkAfter(offset)) {
            failure = new CorruptionException(path, offset, description);
            throw failure;
        }
        done = true;
        pos = end;
        boolean zeroTail = recordStart < 0 && allZero(offset, end);
        tornTailOffset = zeroTail ? -1 : validLength;
        return null;
    }

    private boolean validChunkAfter(int offset) {
        long blockEnd = LogFormat.blockEnd(offset);
        int lastCandidate = (int) Math.min(blockEnd, end) - CHUNK_HEADER_SIZE;
        for (int candidate = offset + 1; candidate <= lastCandidate; candidate++) {
            if (validChunk(candidate)) {
                return true;
            }
        }
        for (long block = blockEnd; block + CHUNK_HEADER_SIZE <= end; block += BLOCK_SIZE) {
            if (validChunk((int) block)) {
                return true;
            }
        }
        return false;
    }

    private boolean validChunk(int chunk) {
        if (end - chunk < CHUNK_HEADER_SIZE) {
            return false;
        }
        int length = Coding.getShort(buf, chunk + 4);
        int type = buf[chunk + 6] & 0xff;
        int payload = chunk + CHUNK_HEADER_SIZE;
        if (type < FULL || type > LAST || payload + length > end || payload + length > LogFormat.blockEnd(chunk)) {
            return false;
        }
        return Checksums.unmask(Coding.getInt(buf, chunk)) == Checksums.crc32c((byte) type, buf, payload, length);
    }

    private void appendFragment(int off, int len) {
        if (fragmentsLength + len > fragments.length) {
            fragments = Arrays.copyOf(fragments, Math.max(fragmentsLength + len, 2 * fragments.length));
        }
        System.arraycopy(buf, off, fragments, fragmentsLength, len);
        fragmentsLength += len;
    }

    private boolean tornBeforeHeader(int fileKind) {
        if (allZero(0, end)) {
            return true;
        }
        if (end >= FileHeader.LENGTH) {
            return false;
        }
        byte[] expected = FileHeader.encode(fileKind, LogFormat.VERSION);
        return Arrays.equals(buf, 0, end, expected, 0, end);
    }

    private boolean allZero(int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
