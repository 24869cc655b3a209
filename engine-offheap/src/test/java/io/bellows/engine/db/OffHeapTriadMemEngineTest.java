package io.bellows.engine.internal.db;

/** TRIAD-MEM under MemoryLayout.OFF_HEAP: hot sets, re-logging and update counts from serialized segments. */
class OffHeapTriadMemEngineTest extends TriadMemEngineTest {}
