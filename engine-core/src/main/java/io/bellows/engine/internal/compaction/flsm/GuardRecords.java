package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * The FLSM scheme records carried in the manifest's scheme-record field (spec:
 * docs/formats/manifest.md, "FLSM guard records"). The guard key fills the rest of each record.
 *
 * <pre>
 *   SELECT  0x01 varint(topLevel)          key   a key chosen as guard, uncommitted at topLevel..last
 *   COMMIT  0x02 varint(level) varint(id)  key   the guard is committed at level..last, with this id
 *   DELETE  0x03                           key   the guard is gone at every level
 * </pre>
 *
 * A table's placement (manifest NEW_FILE field) is the id of the committed guard holding it, 0 for a
 * level's sentinel.
 */
final class GuardRecords {
    static final int SELECT = 1;
    static final int COMMIT = 2;
    static final int DELETE = 3;

    private GuardRecords() {}

    /** One decoded record. {@code level} is the top level (SELECT) or the committed-from level (COMMIT). */
    record Decoded(int kind, int level, long id, byte[] key) {}

    static byte[] select(int topLevel, byte[] key) {
        byte[] b = new byte[1 + Coding.varLongSize(topLevel) + key.length];
        b[0] = SELECT;
        int off = Coding.putVarLong(b, 1, topLevel);
        System.arraycopy(key, 0, b, off, key.length);
        return b;
    }

    static byte[] commit(int level, long id, byte[] key) {
        byte[] b = new byte[1 + Coding.varLongSize(level) + Coding.varLongSize(id) + key.length];
        b[0] = COMMIT;
        int off = Coding.putVarLong(b, 1, level);
        off = Coding.putVarLong(b, off, id);
        System.arraycopy(key, 0, b, off, key.length);
        return b;
    }

    static byte[] delete(byte[] key) {
        byte[] b = new byte[1 + key.length];
        b[0] = DELETE;
        System.arraycopy(key, 0, b, 1, key.length);
        return b;
    }

    /** @throws IllegalStateException if the record is malformed */
    static Decoded decode(byte[] r) {
        if (r.length == 0) {
            throw new IllegalStateException("empty FLSM guard record");
        }
        int[] pos = {1};
        switch (r[0]) {
            case SELECT: {
                int level = level(r, pos);
                return new Decoded(SELECT, level, 0, Arrays.copyOfRange(r, pos[0], r.length));
            }
            case COMMIT: {
                int level = level(r, pos);
                long id = Coding.getVarLong(r, pos, r.length);
                if (id <= 0) {
                    throw new IllegalStateException("FLSM guard id " + id + " is not positive");
                }
                return new Decoded(COMMIT, level, id, Arrays.copyOfRange(r, pos[0], r.length));
            }
            case DELETE:
                return new Decoded(DELETE, 0, 0, Arrays.copyOfRange(r, 1, r.length));
            default:
                throw new IllegalStateException("unknown FLSM guard record kind " + r[0]);
        }
    }

    private static int level(byte[] r, int[] pos) {
        long level = Coding.getVarLong(r, pos, r.length);
        if (level < 1 || level > 1000) {
            throw new IllegalStateException("FLSM guard level " + level + " out of range");
        }
        return (int) level;
    }
}
