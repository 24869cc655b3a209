package io.bellows.engine;

/** Readers against writers, flushes and compactions under MemoryLayout.OFF_HEAP, every scheme and policy. */
class OffHeapConcurrencyTest extends ConcurrencyTest {}
