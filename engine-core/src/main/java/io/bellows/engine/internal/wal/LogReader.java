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
 * <p>A crash can leave the last record of a log incomplete: a chunk header or payload cut by the end of
 * the file, a FIRST without its LAST, or an unwritten (zero) tail. None of that was acknowledged as
 * durable, so it is cut: {@link #next} returns null and {@link #tornTailOffset} says where the valid
 * prefix ends. Everything else is corruption, reported as a {@link CorruptionException} naming the
 * damaged offset: a complete chunk whose checksum fails (its bytes are all there, so a crash did not
 * cut it), a bad type, a length past its block, chunks out of order, and any damage followed by a valid
 * chunk (something was written after it). The caller decides what corruption costs: the manifest
 * refuses to open; WAL recovery applies its {@code WalRecoveryMode}, and may {@link #skipCorruption}
 * to the next valid chunk.
 *
 * <p>Thread safety: none.
 */
public final class LogReader {
    /**
     * File systems expose unwritten space in whole sectors: a zero run to the end of the file that
     * starts on this boundary inside a chunk is an unwritten tail, not damage to a complete chunk.
     */
    static final int SECTOR = 512;
    private final byte[] buf;
    private final Path path;
    private final int end;
    /** Start of the run of zero bytes that ends the file ({@code end} if the last byte is not zero). */
    private final int zeroTailStart;
    /** Offset of the next chunk to read. */
    private int pos;
    private int validLength;
    private long lastRecordOffset = -1;
    private long tornTailOffset = -1;
    private boolean done;
    private CorruptionException failure;
    /** Where the damaged record starts (what corruption makes unreadable starts there). */
    private int damageStart;
    /** The valid chunk to resume at after the damage, or -1 to search past {@link #damageStart}'s chunk. */
    private int resumeAt;
    private int damagedChunk;
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
        int z = end;
        while (z > 0 && buf[z - 1] == 0) {
            z--;
        }
        this.zeroTailStart = z;
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
     * @throws CorruptionException naming the file and the damaged offset; every later call throws it
     *     again unless {@link #skipCorruption} moves past it
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
                return damage(chunk, recordStart, (end - chunk) + "-byte chunk header cut by the end of the file", true);
            }
            int length = Coding.getShort(buf, chunk + 4);
            int type = buf[chunk + 6] & 0xff;
            int payload = chunk + CHUNK_HEADER_SIZE;
            if (length == 0 && type == 0 && Coding.getInt(buf, chunk) == 0) {
                return damage(chunk, recordStart, "zeroed chunk header", zeroTailStart <= chunk);
            }
            if (payload + length > blockEnd) {
                return damage(chunk, recordStart, "chunk length " + length + " runs past the end of its block",
                        unwritten(chunk, payload));
            }
            if (payload + length > end) {
                // Cut by the end of the file, unless the stored checksum matches the bytes that are there:
                // then the chunk is complete and its length field is what was damaged.
                boolean complete = Checksums.unmask(Coding.getInt(buf, chunk))
                        == Checksums.crc32c((byte) type, buf, payload, end - payload);
                return damage(chunk, recordStart, "chunk length " + length + " runs past the end of the file", !complete);
            }
            int after = payload + length;
            if (Checksums.unmask(Coding.getInt(buf, chunk)) != Checksums.crc32c((byte) type, buf, payload, length)) {
                return damage(chunk, recordStart, "chunk checksum mismatch", unwritten(chunk, after));
            }
            switch (type) {
                case FULL:
                    if (recordStart >= 0) {
                        return corruption(recordStart, recordStart, chunk,
                                "record has no LAST chunk; a FULL chunk follows at " + chunk);
                    }
                    pos = after;
                    return complete(chunk, Arrays.copyOfRange(buf, payload, after));
                case FIRST:
                    if (recordStart >= 0) {
                        return corruption(recordStart, recordStart, chunk,
                                "record has no LAST chunk; a FIRST chunk follows at " + chunk);
                    }
                    recordStart = chunk;
                    appendFragment(payload, length);
                    break;
                case MIDDLE:
                case LAST:
                    if (recordStart < 0) {
                        return damage(chunk, -1, LogFormat.typeName(type) + " chunk without a FIRST chunk",
                                unwritten(chunk, after));
                    }
                    appendFragment(payload, length);
                    if (type == LAST) {
                        pos = after;
                        return complete(recordStart, Arrays.copyOf(fragments, fragmentsLength));
                    }
                    break;
                default:
                    return damage(chunk, recordStart, "bad chunk type " + type, unwritten(chunk, after));
            }
            pos = after;
        }
    }

    /**
     * After {@link #next} threw a CorruptionException: moves to the next valid chunk after the damage
     * (RocksDB's skip-any-corrupted-records), so {@link #next} goes on from there, or to the end of the
     * file if none follows. Returns the bytes passed over, from the start of the damaged record.
     */
    public long skipCorruption() {
        if (failure == null) {
            throw new IllegalStateException("no corruption to skip");
        }
        failure = null;
        int resume = resumeAt >= 0 ? resumeAt : nextValidChunk(damagedChunk);
        if (resume < 0) {
            done = true;
            pos = end;
            return end - damageStart;
        }
        pos = resume;
        return resume - damageStart;
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

    /** Bytes of the file: what a torn tail or a corruption leaves unread is measured against it. */
    public long fileLength() {
        return end;
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
     * Whether damage to the chunk spanning [{@code chunk}, {@code chunkEnd}) is explained by an unwritten
     * tail: the file's final run of zeroes starts inside the chunk, on a sector boundary.
     */
    private boolean unwritten(int chunk, int chunkEnd) {
        return zeroTailStart < end && zeroTailStart >= chunk && zeroTailStart < Math.max(chunkEnd, chunk + 1)
                && zeroTailStart % SECTOR == 0;
    }

    /**
     * Damage at {@code offset}: a torn tail if {@code incomplete} (what a crash leaves) and no valid chunk
     * starts after it; corruption otherwise.
     */
    private byte[] damage(int offset, int recordStart, String description, boolean incomplete) {
        if (!incomplete || nextValidChunk(offset) >= 0) {
            return corruption(offset, recordStart >= 0 ? recordStart : offset, -1, description);
        }
        done = true;
        pos = end;
        boolean zeroTail = recordStart < 0 && zeroTailStart <= offset;
        tornTailOffset = zeroTail ? -1 : validLength;
        return null;
    }

    private byte[] corruption(int offset, int recordStart, int resume, String description) {
        damagedChunk = offset;
        damageStart = recordStart;
        resumeAt = resume;
        failure = new CorruptionException(path, offset, description);
        throw failure;
    }

    /**
     * The first valid chunk after {@code offset}, or -1: at any offset in the rest of its block (a damaged
     * length field cannot say where the next chunk starts) or at any later block start.
     */
    private int nextValidChunk(int offset) {
        long blockEnd = LogFormat.blockEnd(offset);
        int lastCandidate = (int) Math.min(blockEnd, end) - CHUNK_HEADER_SIZE;
        for (int candidate = offset + 1; candidate <= lastCandidate; candidate++) {
            if (validChunk(candidate)) {
                return candidate;
            }
        }
        for (long block = blockEnd; block + CHUNK_HEADER_SIZE <= end; block += BLOCK_SIZE) {
            if (validChunk((int) block)) {
                return (int) block;
            }
        }
        return -1;
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
        if (zeroTailStart == 0) {
            return true;
        }
        if (end >= FileHeader.LENGTH) {
            return false;
        }
        byte[] expected = FileHeader.encode(fileKind, LogFormat.VERSION);
        return Arrays.equals(buf, 0, end, expected, 0, end);
    }
}
