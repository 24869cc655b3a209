package io.bellows.engine.internal.trace;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a trace file (docs/formats/trace.md) block by block. A block that is cut short or fails its
 * CRC ends the trace: it is the tail a crash tore, and everything before it is returned; {@link #tornAt()}
 * tells where. A record that does not decode inside a block whose CRC holds is a corruption.
 */
public final class TraceReader implements Closeable {
    private final Path file;
    private final InputStream in;
    private final long length;
    private final boolean values;
    private final long startEpochMillis;
    private long offset;
    private long tornAt = -1;
    private byte[] body = new byte[TraceWriter.BLOCK_SIZE + TraceBuffer.HEAD_ROOM];

    /** One thread's block: its records in order. */
    public record Block(int thread, long offset, List<TraceRecord> records) {}

    private TraceReader(Path file, InputStream in, long length, boolean values, long startEpochMillis) {
        this.file = file;
        this.in = in;
        this.length = length;
        this.values = values;
        this.startEpochMillis = startEpochMillis;
        this.offset = TraceFormat.HEADER_LENGTH;
    }

    /**
     * Opens {@code file} and checks its headers.
     *
     * @throws CorruptionException if it is not a trace of a version this build reads, or its header is damaged
     */
    public static TraceReader open(Path file) throws IOException {
        long length = Files.size(file);
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20);
        try {
            byte[] h = in.readNBytes(TraceFormat.HEADER_LENGTH);
            FileHeader.check(h, 0, h.length, file, FileHeader.KIND_TRACE, TraceFormat.VERSION, TraceFormat.VERSION);
            if (h.length < TraceFormat.HEADER_LENGTH) {
                throw new CorruptionException(file, FileHeader.LENGTH, "file too short for the trace header");
            }
            int p = FileHeader.LENGTH;
            if (Checksums.unmask(Coding.getInt(h, p + 12)) != Checksums.crc32c(h, p, 12)) {
                throw new CorruptionException(file, p, "trace header checksum mismatch");
            }
            int flags = Coding.getInt(h, p);
            return new TraceReader(file, in, length, (flags & TraceFormat.FLAG_VALUES) != 0, Coding.getLong(h, p + 4));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Whether puts carry their values. */
    public boolean values() {
        return values;
    }

    /** When the trace started, in milliseconds since the epoch. */
    public long startEpochMillis() {
        return startEpochMillis;
    }

    /** Where the torn tail starts (bytes from there on were left out), or -1 if the trace ended cleanly. */
    public long tornAt() {
        return tornAt;
    }

    /** The next intact block, or null at the end of the trace (or at its torn tail). */
    public Block next() throws IOException {
        return next(-1);
    }

    /**
     * The next intact block of thread {@code thread} (any thread when negative), skipping the others'
     * without decoding them, or null at the end.
     */
    public Block next(int thread) throws IOException {
        while (tornAt < 0 && offset < length) {
            long at = offset;
            if (length - at < TraceFormat.BLOCK_OVERHEAD) {
                return torn(at);
            }
            byte[] lenBytes = in.readNBytes(4);
            int bodyLength = Coding.getInt(lenBytes, 0);
            if (bodyLength <= 0 || bodyLength > length - at - TraceFormat.BLOCK_OVERHEAD) {
                return torn(at);
            }
            if (body.length < bodyLength + 4) {
                body = new byte[Math.max(bodyLength + 4, 2 * body.length)];
            }
            readFully(body, bodyLength + 4);
            offset = at + TraceFormat.BLOCK_OVERHEAD + bodyLength;
            if (Checksums.unmask(Coding.getInt(body, bodyLength)) != Checksums.crc32c(body, 0, bodyLength)) {
                return torn(at);
            }
            int[] pos = {0};
            try {
                int blockThread = (int) Coding.getVarLong(body, pos, bodyLength);
                if (thread >= 0 && blockThread != thread) {
                    continue;
                }
                long base = Coding.getVarLong(body, pos, bodyLength);
                long count = Coding.getVarLong(body, pos, bodyLength);
                return new Block(blockThread, at, new RecordDecoder(body, pos, bodyLength, values).decode(base, count));
            } catch (IllegalStateException e) {
                throw new CorruptionException(file, at, "undecodable trace block: " + e.getMessage());
            }
        }
        return null;
    }

    private Block torn(long at) {
        tornAt = at;
        return null;
    }

    private void readFully(byte[] b, int n) throws IOException {
        int got = in.readNBytes(b, 0, n);
        if (got != n) {
            throw new EOFException("trace " + file + " shrank while being read");
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Decodes the records of one block body. */
    private static final class RecordDecoder {
        private final byte[] b;
        private final int[] pos;
        private final int limit;
        private final boolean values;

        RecordDecoder(byte[] b, int[] pos, int limit, boolean values) {
            this.b = b;
            this.pos = pos;
            this.limit = limit;
            this.values = values;
        }

        List<TraceRecord> decode(long base, long count) {
            List<TraceRecord> out = new ArrayList<>((int) Math.min(count, 1 << 16));
            long time = base;
            for (long i = 0; i < count; i++) {
                if (pos[0] >= limit) {
                    throw new IllegalStateException("block ends after " + i + " of " + count + " records");
                }
                int kind = b[pos[0]++] & 0xff;
                time += varLong();
                out.add(record(kind, time));
            }
            if (pos[0] != limit) {
                throw new IllegalStateException((limit - pos[0]) + " bytes after the last record");
            }
            return out;
        }

        private TraceRecord record(int kind, long time) {
            switch (kind) {
                case TraceFormat.GET:
                    return new TraceRecord.Get(time, bytes());
                case TraceFormat.PUT: {
                    byte[] key = bytes();
                    int vlen = length();
                    return new TraceRecord.Put(time, key, vlen, values ? raw(vlen) : null);
                }
                case TraceFormat.DELETE:
                    return new TraceRecord.Delete(time, bytes());
                case TraceFormat.WRITE: {
                    int n = length();
                    List<TraceRecord.BatchOp> ops = new ArrayList<>(Math.min(n, 1 << 16));
                    for (int i = 0; i < n; i++) {
                        int op = u8();
                        byte[] key = bytes();
                        if (op == TraceFormat.BATCH_PUT) {
                            int vlen = length();
                            ops.add(new TraceRecord.BatchOp(true, key, vlen, values ? raw(vlen) : null));
                        } else if (op == TraceFormat.BATCH_DELETE) {
                            ops.add(new TraceRecord.BatchOp(false, key, 0, null));
                        } else {
                            throw new IllegalStateException("unknown batch operation " + op);
                        }
                    }
                    return new TraceRecord.Write(time, List.copyOf(ops));
                }
                case TraceFormat.MULTI_GET: {
                    int n = length();
                    List<byte[]> keys = new ArrayList<>(Math.min(n, 1 << 16));
                    for (int i = 0; i < n; i++) {
                        keys.add(bytes());
                    }
                    return new TraceRecord.MultiGet(time, keys);
                }
                case TraceFormat.CURSOR_OPEN: {
                    long id = varLong();
                    int bounds = u8();
                    byte[] lower = (bounds & TraceFormat.LOWER_BOUND) != 0 ? bytes() : null;
                    byte[] upper = (bounds & TraceFormat.UPPER_BOUND) != 0 ? bytes() : null;
                    return new TraceRecord.CursorOpen(time, id, lower, upper);
                }
                case TraceFormat.SEEK:
                case TraceFormat.SEEK_FOR_PREV:
                    return new TraceRecord.CursorMove(kind, time, varLong(), bytes());
                case TraceFormat.SEEK_TO_FIRST:
                case TraceFormat.SEEK_TO_LAST:
                case TraceFormat.CURSOR_CLOSE:
                    return new TraceRecord.CursorMove(kind, time, varLong(), null);
                case TraceFormat.NEXT:
                case TraceFormat.PREV:
                    return new TraceRecord.CursorStep(time, varLong(), kind == TraceFormat.NEXT, varLong());
                default:
                    throw new IllegalStateException("unknown record kind " + kind);
            }
        }

        private long varLong() {
            return Coding.getVarLong(b, pos, limit);
        }

        private int length() {
            long n = varLong();
            if (n > Integer.MAX_VALUE) {
                throw new IllegalStateException("length " + n + " out of range");
            }
            return (int) n;
        }

        private int u8() {
            if (pos[0] >= limit) {
                throw new IllegalStateException("truncated record");
            }
            return b[pos[0]++] & 0xff;
        }

        private byte[] bytes() {
            return raw(length());
        }

        private byte[] raw(int n) {
            if (n < 0 || n > limit - pos[0]) {
                throw new IllegalStateException("a field of " + n + " bytes runs past the block");
            }
            byte[] out = Arrays.copyOfRange(b, pos[0], pos[0] + n);
            pos[0] += n;
            return out;
        }
    }
}
