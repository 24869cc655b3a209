package io.bellows.stress;

import io.bellows.engine.Durability;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A worker thread's append-only record of what it attempted and what was acknowledged, one file per
 * thread and run. An ATTEMPT record is written before the engine call and its ACK after the call
 * returns, each with one plain {@code write(2)} and no user-space buffer: a SIGKILL loses nothing the
 * kernel has taken, so after the kill the file holds every write the engine may have seen and a
 * subset of the ones it acknowledged, which is what the checker needs (no fsync: the machine does not
 * crash). Records are 24 bytes with a CRC32C; an incomplete or damaged last record is a write the
 * kill interrupted and is ignored.
 */
final class OpLog implements AutoCloseable {
    static final int RECORD = 24;
    static final byte ATTEMPT = 1;
    static final byte ACK = 2;

    /** Operation kinds. */
    static final byte PUT = 1;
    static final byte DELETE = 2;
    static final byte BATCH = 3;
    static final byte BATCH_DELETE = 4;

    static final int FLAG_DECOYS = 1;
    /** A batch over several groups: one ATTEMPT per group before the call, one ACK per group after it. */
    static final int FLAG_MULTI = 2;

    private final FileOutputStream out;
    private final byte[] buf = new byte[RECORD];
    private final CRC32C crc = new CRC32C();

    OpLog(Path file) throws IOException {
        out = new FileOutputStream(file.toFile(), true);
    }

    /** One record: an attempt or acknowledgement of an operation on a slot (PUT, DELETE) or a group (BATCH*). */
    record Entry(byte type, byte op, Durability durability, int flags, int key, long counter, int length) {
        boolean isBatch() {
            return op == BATCH || op == BATCH_DELETE;
        }
    }

    void attempt(byte op, Durability d, int flags, int key, long counter, int length) throws IOException {
        write(ATTEMPT, op, d, flags, key, counter, length);
    }

    void ack(byte op, Durability d, int flags, int key, long counter, int length) throws IOException {
        write(ACK, op, d, flags, key, counter, length);
    }

    private void write(byte type, byte op, Durability d, int flags, int key, long counter, int length) throws IOException {
        buf[0] = type;
        buf[1] = op;
        buf[2] = (byte) d.ordinal();
        buf[3] = (byte) flags;
        KeySpace.putInt(buf, 4, key);
        KeySpace.putLong(buf, 8, counter);
        KeySpace.putInt(buf, 16, length);
        crc.reset();
        crc.update(buf, 0, 20);
        KeySpace.putInt(buf, 20, (int) crc.getValue());
        out.write(buf);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /**
     * Reads a log; an incomplete or damaged final record is dropped (the kill interrupted its write),
     * while a damaged record followed by others means the log itself is broken.
     */
    static List<Entry> read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        List<Entry> entries = new ArrayList<>(all.length / RECORD);
        CRC32C crc = new CRC32C();
        int n = all.length / RECORD;
        for (int i = 0; i < n; i++) {
            int off = i * RECORD;
            crc.reset();
            crc.update(all, off, 20);
            byte type = all[off];
            byte op = all[off + 1];
            int dur = all[off + 2];
            boolean valid = (int) crc.getValue() == KeySpace.getInt(all, off + 20) && (type == ATTEMPT || type == ACK)
                    && op >= PUT && op <= BATCH_DELETE && dur >= 0 && dur < Durability.values().length;
            if (!valid) {
                if (i == n - 1) {
                    break;
                }
                throw new IOException(file + ": damaged op-log record " + i + " of " + n);
            }
            entries.add(new Entry(type, op, Durability.values()[dur], all[off + 3], KeySpace.getInt(all, off + 4),
                    KeySpace.getLong(all, off + 8), KeySpace.getInt(all, off + 16)));
        }
        return entries;
    }
}
