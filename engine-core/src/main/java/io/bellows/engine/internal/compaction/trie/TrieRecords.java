package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * LSM_TRIE's scheme records in the manifest (docs/formats/manifest.md): the store's shape, written when
 * the store is created and with every new manifest, and the garbage estimates of sampled last-level
 * containers.
 */
final class TrieRecords {
    static final int SHAPE = 1;
    static final int GARBAGE = 2;

    private TrieRecords() {}

    /** The hash seed, trie depth and full-table bucket count a store was created with: 12 bytes. */
    record Shape(long seed, int depth, int buckets) {
        byte[] encode() {
            byte[] b = new byte[12];
            b[0] = SHAPE;
            Coding.putLong(b, 1, seed);
            b[9] = (byte) depth;
            Coding.putShort(b, 10, buckets);
            return b;
        }

        static Shape decode(byte[] record) {
            if (record.length != 12) {
                throw new IllegalStateException("LSM_TRIE shape record of " + record.length + " bytes");
            }
            Shape s = new Shape(Coding.getLong(record, 1), record[9], Coding.getShort(record, 10));
            // Only what TrieOptions accepts: a store adopts the bucket count, so a bad one must not get through.
            try {
                TrieOptions.builder().depth(s.depth).tableBuckets(s.buckets);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("LSM_TRIE shape record: " + e.getMessage(), e);
            }
            return s;
        }
    }

    /** The garbage estimate (per mille) of one last-level container. */
    record Garbage(long container, int perMille) {
        byte[] encode() {
            byte[] b = new byte[1 + 10 + 5];
            b[0] = GARBAGE;
            int off = Coding.putVarLong(b, 1, container);
            off = Coding.putVarLong(b, off, perMille);
            return Arrays.copyOf(b, off);
        }

        static Garbage decode(byte[] record) {
            int[] pos = {1};
            long container = Coding.getVarLong(record, pos, record.length);
            int perMille = (int) Coding.getVarLong(record, pos, record.length);
            return new Garbage(container, perMille);
        }
    }
}
