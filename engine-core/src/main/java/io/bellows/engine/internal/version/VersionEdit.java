package io.bellows.engine.internal.version;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One manifest record: a change from one version to the next (spec: docs/formats/manifest.md).
 * Encoded as a sequence of tagged fields so that a snapshot of a whole version and a small delta
 * share one format.
 */
public final class VersionEdit {
    static final int TAG_SCHEME = 1;
    static final int TAG_LOG_NUMBER = 2;
    static final int TAG_NEXT_FILE = 3;
    static final int TAG_LAST_SEQUENCE = 4;
    static final int TAG_DELETED_FILE = 5;
    static final int TAG_NEW_FILE = 6;
    static final int TAG_SCHEME_RECORD = 7;

    /** A table added at a level; {@code placement} is scheme-specific (guard, container, tier), 0 if unused. */
    public record NewFile(int level, long placement, FileMeta meta) {}

    public record DeletedFile(int level, long number) {}

    private String scheme;
    private long logNumber = -1;
    private long nextFileNumber = -1;
    private long lastSequence = -1;
    private final List<DeletedFile> deleted = new ArrayList<>();
    private final List<NewFile> added = new ArrayList<>();
    private final List<byte[]> schemeRecords = new ArrayList<>();

    public VersionEdit scheme(String name) {
        scheme = name;
        return this;
    }

    public VersionEdit logNumber(long n) {
        logNumber = n;
        return this;
    }

    public VersionEdit nextFileNumber(long n) {
        nextFileNumber = n;
        return this;
    }

    public VersionEdit lastSequence(long s) {
        lastSequence = s;
        return this;
    }

    public VersionEdit deleteFile(int level, long number) {
        deleted.add(new DeletedFile(level, number));
        return this;
    }

    public VersionEdit addFile(int level, long placement, FileMeta meta) {
        added.add(new NewFile(level, placement, meta));
        return this;
    }

    public VersionEdit addFile(int level, FileMeta meta) {
        return addFile(level, 0, meta);
    }

    /** Sets the placement of the {@code index}-th added table. */
    public VersionEdit placeNewFile(int index, long placement) {
        NewFile f = added.get(index);
        added.set(index, new NewFile(f.level(), placement, f.meta()));
        return this;
    }

    /** An opaque record of the compaction scheme's own state (e.g. compaction cursors, guards). */
    public VersionEdit schemeRecord(byte[] record) {
        schemeRecords.add(record);
        return this;
    }

    public String scheme() {
        return scheme;
    }

    public long logNumber() {
        return logNumber;
    }

    public long nextFileNumber() {
        return nextFileNumber;
    }

    public long lastSequence() {
        return lastSequence;
    }

    public List<DeletedFile> deletedFiles() {
        return deleted;
    }

    public List<NewFile> newFiles() {
        return added;
    }

    public List<byte[]> schemeRecords() {
        return schemeRecords;
    }

    public byte[] encode() {
        Out out = new Out();
        if (scheme != null) {
            out.varLong(TAG_SCHEME).bytes(scheme.getBytes(StandardCharsets.UTF_8));
        }
        if (logNumber >= 0) {
            out.varLong(TAG_LOG_NUMBER).varLong(logNumber);
        }
        if (nextFileNumber >= 0) {
            out.varLong(TAG_NEXT_FILE).varLong(nextFileNumber);
        }
        if (lastSequence >= 0) {
            out.varLong(TAG_LAST_SEQUENCE).varLong(lastSequence);
        }
        for (DeletedFile d : deleted) {
            out.varLong(TAG_DELETED_FILE).varLong(d.level()).varLong(d.number());
        }
        for (NewFile f : added) {
            FileMeta m = f.meta();
            out.varLong(TAG_NEW_FILE).varLong(f.level()).varLong(f.placement()).varLong(m.number).varLong(m.fileSize)
                    .bytes(m.smallestKey).varLong(m.smallestSeq).bytes(m.largestKey).varLong(m.largestSeq)
                    .varLong(m.entries).varLong(m.maxSequence);
        }
        for (byte[] r : schemeRecords) {
            out.varLong(TAG_SCHEME_RECORD).bytes(r);
        }
        return out.toByteArray();
    }

    /** Decodes a manifest record; {@code file} and {@code offset} name it in a corruption error. */
    public static VersionEdit decode(byte[] b, Path file, long offset) {
        VersionEdit e = new VersionEdit();
        int[] pos = {0};
        try {
            while (pos[0] < b.length) {
                int tag = (int) Coding.getVarLong(b, pos, b.length);
                switch (tag) {
                    case TAG_SCHEME:
                        e.scheme = new String(bytes(b, pos), StandardCharsets.UTF_8);
                        break;
                    case TAG_LOG_NUMBER:
                        e.logNumber = Coding.getVarLong(b, pos, b.length);
                        break;
                    case TAG_NEXT_FILE:
                        e.nextFileNumber = Coding.getVarLong(b, pos, b.length);
                        break;
                    case TAG_LAST_SEQUENCE:
                        e.lastSequence = Coding.getVarLong(b, pos, b.length);
                        break;
                    case TAG_DELETED_FILE:
                        e.deleteFile(level(b, pos), Coding.getVarLong(b, pos, b.length));
                        break;
                    case TAG_NEW_FILE: {
                        int level = level(b, pos);
                        long placement = Coding.getVarLong(b, pos, b.length);
                        long number = Coding.getVarLong(b, pos, b.length);
                        long size = Coding.getVarLong(b, pos, b.length);
                        byte[] smallest = bytes(b, pos);
                        long smallestSeq = Coding.getVarLong(b, pos, b.length);
                        byte[] largest = bytes(b, pos);
                        long largestSeq = Coding.getVarLong(b, pos, b.length);
                        long entries = Coding.getVarLong(b, pos, b.length);
                        long maxSeq = Coding.getVarLong(b, pos, b.length);
                        e.addFile(level, placement,
                                new FileMeta(number, size, smallest, smallestSeq, largest, largestSeq, entries, maxSeq));
                        break;
                    }
                    case TAG_SCHEME_RECORD:
                        e.schemeRecord(bytes(b, pos));
                        break;
                    default:
                        throw new CorruptionException(file, offset, "unknown manifest field tag " + tag);
                }
            }
        } catch (IllegalStateException ex) {
            throw new CorruptionException(file, offset, "malformed manifest record: " + ex.getMessage(), ex);
        }
        return e;
    }

    private static int level(byte[] b, int[] pos) {
        long level = Coding.getVarLong(b, pos, b.length);
        if (level > 1000) {
            throw new IllegalStateException("level " + level + " out of range");
        }
        return (int) level;
    }

    private static byte[] bytes(byte[] b, int[] pos) {
        long len = Coding.getVarLong(b, pos, b.length);
        if (len > InternalKeys.MAX_KEY_LENGTH + 1024L || pos[0] + len > b.length) {
            throw new IllegalStateException("field length " + len + " out of range");
        }
        byte[] r = Arrays.copyOfRange(b, pos[0], pos[0] + (int) len);
        pos[0] += (int) len;
        return r;
    }

    private static final class Out extends ByteArrayOutputStream {
        private final byte[] scratch = new byte[10];

        Out varLong(long v) {
            int n = Coding.putVarLong(scratch, 0, v);
            write(scratch, 0, n);
            return this;
        }

        Out bytes(byte[] b) {
            varLong(b.length);
            write(b, 0, b.length);
            return this;
        }
    }
}
