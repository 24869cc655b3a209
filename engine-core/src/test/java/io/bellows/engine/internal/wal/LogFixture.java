package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFormat.BLOCK_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.CHUNK_HEADER_SIZE;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a log into memory and takes its bytes apart; shared by the log tests (after LevelDB's log_test). */
final class LogFixture {
    static final Path PATH = Path.of("db", "000007.log");
    static final int HEADER = FileHeader.LENGTH;

    final MemWritableFile file = new MemWritableFile();
    final LogWriter writer;
    /** Offset of the first chunk of each record written. */
    final List<Long> recordOffsets = new ArrayList<>();
    /** Offset after the last chunk of each record written. */
    final List<Long> recordEnds = new ArrayList<>();
    final List<byte[]> records = new ArrayList<>();

    LogFixture() {
        this(FileHeader.KIND_WAL);
    }

    LogFixture(int kind) {
        try {
            writer = new LogWriter(file, kind);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    LogFixture write(byte[] record) {
        long at = writer.size();
        long blockEnd = LogFormat.blockEnd(at);
        recordOffsets.add(blockEnd - at < CHUNK_HEADER_SIZE ? blockEnd : at);
        records.add(record);
        try {
            writer.addRecord(record, 0, record.length);
            recordEnds.add(writer.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    LogFixture write(String record) {
        return write(bytes(record));
    }

    byte[] contents() {
        return file.contents();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code partial} repeated to {@code n} bytes. */
    static byte[] big(String partial, int n) {
        byte[] p = bytes(partial);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = p[i % p.length];
        }
        return b;
    }

    static byte[] number(int n) {
        return bytes(n + ".");
    }

    static LogReader reader(byte[] contents) {
        return new LogReader(contents, PATH, FileHeader.KIND_WAL);
    }

    /** Every record up to the end (clean or torn); throws what the reader throws. */
    static List<byte[]> readAll(LogReader reader) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] r = reader.next(); r != null; r = reader.next()) {
            out.add(r);
        }
        return out;
    }

    /** Chunks of an undamaged log as {offset, length, type}. */
    static List<int[]> chunks(byte[] log) {
        List<int[]> out = new ArrayList<>();
        int pos = HEADER;
        while (pos < log.length) {
            int blockEnd = (int) LogFormat.blockEnd(pos);
            if (blockEnd - pos < CHUNK_HEADER_SIZE) {
                pos = blockEnd;
                continue;
            }
            int length = Coding.getShort(log, pos + 4);
            out.add(new int[] {pos, length, log[pos + 6]});
            pos += CHUNK_HEADER_SIZE + length;
        }
        return out;
    }

    /** The chunk holding byte {@code offset}, or null if it is in a block trailer. */
    static int[] chunkAt(byte[] log, int offset) {
        for (int[] c : chunks(log)) {
            if (offset >= c[0] && offset < c[0] + CHUNK_HEADER_SIZE + c[1]) {
                return c;
            }
        }
        return null;
    }

    static void setType(byte[] log, int chunk, int type) {
        log[chunk + 6] = (byte) type;
        fixChecksum(log, chunk);
    }

    static void fixChecksum(byte[] log, int chunk) {
        int length = Coding.getShort(log, chunk + 4);
        Coding.putInt(log, chunk, Checksums.mask(
                Checksums.crc32c(log[chunk + 6], log, chunk + CHUNK_HEADER_SIZE, length)));
    }

    static int blockStart(int block) {
        return HEADER + block * BLOCK_SIZE;
    }
}
