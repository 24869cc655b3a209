package io.bellows.engine.internal.table.htable;

/**
 * The per-bucket bloom filters of one HTable, as needed to cluster them into a newer table of the same
 * container. {@code filters[b]} is the encoded filter of bucket {@code b}; empty when no key has it as
 * its home bucket.
 */
public record TableFilters(long number, byte[][] filters) {}
