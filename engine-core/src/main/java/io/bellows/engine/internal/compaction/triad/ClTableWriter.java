package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Builds the index file of a CL-table (docs/formats/cl-table.md): the logs it points into, then its entries
 * in internal-key order, each either a position in one of those logs or, when no durable log holds the
 * version, the value itself; then the scheme metadata and a footer with the body's length and checksum.
 * Entries are kept in memory until {@link #finish}: an index is a few tens of bytes per entry.
 */
final class ClTableWriter {
    static final int VERSION = 1;
    /** Footer: u32 LE body length, u32 LE masked CRC32C of the body. */
    static final int FOOTER = 8;

    private final long[] logs;
    private byte[] entries = new byte[4096];
    private int size;
    private long count;

    ClTableWriter(long[] logs) {
        this.logs = logs;
    }

    long entries() {
        return count;
    }

    /**
     * An entry whose version is read from log {@code logIndex} of the list, at the operation's position.
     * {@code key} need stay valid only during the call: its bytes are copied into the index.
     */
    void addPointer(Slice key, long seq, int kind, int logIndex, long chunkOffset, int offsetInChunk) {
        head(key, seq, kind, logIndex + 1L);
        size = ensure(size, 20);
        size = Coding.putVarLong(entries, size, chunkOffset);
        size = Coding.putVarInt(entries, size, offsetInChunk);
    }

    /** An entry holding its value (PUT) or nothing more (DELETE); views as for {@link #addPointer}. */
    void addInline(Slice key, long seq, int kind, Slice value) {
        head(key, seq, kind, 0);
        if (kind == InternalKeys.KIND_PUT) {
            int vl = value.length();
            size = ensure(size, 5 + vl);
            size = Coding.putVarInt(entries, size, vl);
            System.arraycopy(value.array(), value.offset(), entries, size, vl);
            size += vl;
        }
    }

    private void head(Slice key, long seq, int kind, long ref) {
        int kl = key.length();
        size = ensure(size, 5 + kl + 8 + 10);
        size = Coding.putVarInt(entries, size, kl);
        System.arraycopy(key.array(), key.offset(), entries, size, kl);
        size += kl;
        Coding.putLong(entries, size, InternalKeys.trailer(seq, kind));
        size += 8;
        size = Coding.putVarLong(entries, size, ref);
        count++;
    }

    private int ensure(int at, int more) {
        if (at + more > entries.length) {
            entries = Arrays.copyOf(entries, Math.max(entries.length * 2, at + more));
        }
        return at;
    }

    /** Writes the whole file to {@code out} and syncs it; returns its size. */
    long finish(WritableFile out, byte[] metadata) throws IOException {
        byte[] head = new byte[10 + 10 * logs.length + 10];
        int h = Coding.putVarInt(head, 0, logs.length);
        for (long log : logs) {
            h = Coding.putVarLong(head, h, log);
        }
        h = Coding.putVarLong(head, h, count);
        byte[] meta = metadata == null ? new byte[0] : metadata;
        byte[] tail = new byte[5 + meta.length];
        int t = Coding.putVarInt(tail, 0, meta.length);
        System.arraycopy(meta, 0, tail, t, meta.length);
        t += meta.length;
        CRC32C crc = new CRC32C();
        crc.update(head, 0, h);
        crc.update(entries, 0, size);
        crc.update(tail, 0, t);
        long body = (long) h + size + t;
        if (body > Integer.MAX_VALUE) {
            throw new IOException("CL-table index of " + body + " bytes is over the 2 GiB limit");
        }
        byte[] footer = new byte[FOOTER];
        Coding.putInt(footer, 0, (int) body);
        Coding.putInt(footer, 4, Checksums.mask((int) crc.getValue()));
        out.append(FileHeader.encode(FileHeader.KIND_CLTABLE, VERSION));
        out.append(head, 0, h);
        out.append(entries, 0, size);
        out.append(tail, 0, t);
        out.append(footer);
        out.sync();
        out.close();
        return FileHeader.LENGTH + body + FOOTER;
    }
}
