package io.bellows.engine.internal.table;

import io.bellows.engine.internal.util.Bytes;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a table says about itself (its properties block, plus the file size): entry counts, key range
 * and raw sizes. The smallest and largest keys are the first and last internal keys of the table.
 * Arrays are shared, never modified.
 *
 * @param fileSize bytes of the whole file
 * @param entries number of entries (puts and deletes)
 * @param deletions number of DELETE entries
 * @param smallestKey user key of the first entry
 * @param smallestSeq sequence of the first entry
 * @param largestKey user key of the last entry
 * @param largestSeq sequence of the last entry
 * @param rawKeyBytes sum of internal key lengths (user key + 8-byte trailer), before prefix compression
 * @param rawValueBytes sum of value lengths
 * @param schemeMetadata what the compaction scheme stored with the table (opaque to the engine), or null
 */
public record TableProperties(long fileSize, long entries, long deletions, byte[] smallestKey, long smallestSeq,
        byte[] largestKey, long largestSeq, long rawKeyBytes, long rawValueBytes, byte[] schemeMetadata) {

    /** Properties of a table without scheme metadata. */
    public TableProperties(long fileSize, long entries, long deletions, byte[] smallestKey, long smallestSeq,
            byte[] largestKey, long largestSeq, long rawKeyBytes, long rawValueBytes) {
        this(fileSize, entries, deletions, smallestKey, smallestSeq, largestKey, largestSeq, rawKeyBytes, rawValueBytes,
                null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableProperties p && fileSize == p.fileSize && entries == p.entries
                && deletions == p.deletions && Arrays.equals(smallestKey, p.smallestKey) && smallestSeq == p.smallestSeq
                && Arrays.equals(largestKey, p.largestKey) && largestSeq == p.largestSeq
                && rawKeyBytes == p.rawKeyBytes && rawValueBytes == p.rawValueBytes
                && Arrays.equals(schemeMetadata, p.schemeMetadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileSize, entries, deletions, Arrays.hashCode(smallestKey), smallestSeq,
                Arrays.hashCode(largestKey), largestSeq, rawKeyBytes, rawValueBytes, Arrays.hashCode(schemeMetadata));
    }

    @Override
    public String toString() {
        return "TableProperties[fileSize=" + fileSize + ", entries=" + entries + ", deletions=" + deletions
                + ", smallest=" + Bytes.toHex(smallestKey) + "@" + smallestSeq + ", largest=" + Bytes.toHex(largestKey)
                + "@" + largestSeq + ", rawKeyBytes=" + rawKeyBytes + ", rawValueBytes=" + rawValueBytes + "]";
    }
}
