package io.bellows.engine.internal.db;

/** TRIAD killed while its jobs run, under MemoryLayout.OFF_HEAP: carried hot keys in serialized segments. */
class OffHeapTriadProcessCrashTest extends TriadProcessCrashTest {}
