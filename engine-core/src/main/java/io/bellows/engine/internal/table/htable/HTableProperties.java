package io.bellows.engine.internal.table.htable;

/**
 * What writing an HTable produced. {@code dataBytes} is the encoded size of its items (the measure of
 * how full a pile is); keys and sequences bound the entries as in an SSTable's properties; {@code meta}
 * opens a reader of the table without reading it back.
 */
public record HTableProperties(long number, long fileSize, long entries, long dataBytes, byte[] smallestKey,
        long smallestSeq, byte[] largestKey, long largestSeq, long maxSeq, TableFilters filters, HTableMeta meta) {}
