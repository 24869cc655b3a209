package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFormat.BLOCK_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.CHUNK_HEADER_SIZE;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.Objects;

/**
 * Appends records to a log file (WAL or manifest) in the framing of docs/formats/wal.md: a file header,
 * then records cut into chunks that never cross a 32 KiB block boundary.
 *
 * <p>Once an append fails the writer refuses further records: the failed record may have left a FIRST
 * chunk without its LAST, and a record appended after it would turn that torn fragment into mid-file
 * corruption that blocks recovery.
 *
 * <p>Thread safety: none; the WAL's group-commit leader (or the manifest writer) is the only caller.
 */
public final class LogWriter implements AutoCloseable {
    private static final byte[] ZEROS = new byte[CHUNK_HEADER_SIZE - 1];

    private final WritableFile file;
    private final byte[] chunkHeader = new byte[CHUNK_HEADER_SIZE];
    /** Bytes written into the current block. */
    private int blockOffset;
    private long size;
    private IOException failure;
    private boolean closed;

    /** Writes the file header of a log of {@code fileKind} ({@link FileHeader#KIND_WAL} or KIND_MANIFEST). */
    public LogWriter(WritableFile file, int fileKind) throws IOException {
        this.file = Objects.requireNonNull(file, "file");
        byte[] header = FileHeader.encode(fileKind, LogFormat.VERSION);
        file.append(header, 0, header.length);
        size = header.length;
    }

    /** Appends one record; it reaches the OS on {@link #flush} and the disk on {@link #sync}. */
    public void addRecord(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        checkUsable();
        try {
            boolean begin = true;
            do {
                int leftover = BLOCK_SIZE - blockOffset;
                if (leftover < CHUNK_HEADER_SIZE) {
                    if (leftover > 0) {
                        file.append(ZEROS, 0, leftover);
                        size += leftover;
                    }
                    blockOffset = 0;
                }
                int fragment = Math.min(len, BLOCK_SIZE - blockOffset - CHUNK_HEADER_SIZE);
                boolean end = fragment == len;
                int type = begin
                        ? (end ? LogFormat.FULL : LogFormat.FIRST)
                        : (end ? LogFormat.LAST : LogFormat.MIDDLE);
                emitChunk(type, b, off, fragment);
                off += fragment;
                len -= fragment;
                begin = false;
            } while (len > 0);
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException ? (IOException) e : new IOException(e);
            throw e;
        }
    }

    public void flush() throws IOException {
        checkUsable();
        file.flush();
    }

    public void sync() throws IOException {
        checkUsable();
        file.sync();
    }

    /** Bytes written so far, header and block trailers included. */
    public long size() {
        return size;
    }

    /** Flushes and closes the file; does not sync. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            file.close();
        }
    }

    private void emitChunk(int type, byte[] b, int off, int len) throws IOException {
        int crc = Checksums.mask(Checksums.crc32c((byte) type, b, off, len));
        Coding.putInt(chunkHeader, 0, crc);
        Coding.putShort(chunkHeader, 4, len);
        chunkHeader[6] = (byte) type;
        file.append(chunkHeader, 0, CHUNK_HEADER_SIZE);
        file.append(b, off, len);
        blockOffset += CHUNK_HEADER_SIZE + len;
        size += CHUNK_HEADER_SIZE + len;
    }

    private void checkUsable() throws IOException {
        if (closed) {
            throw new IllegalStateException("log writer is closed");
        }
        if (failure != null) {
            throw new IOException("log writer failed earlier; no more records can be appended", failure);
        }
    }
}
