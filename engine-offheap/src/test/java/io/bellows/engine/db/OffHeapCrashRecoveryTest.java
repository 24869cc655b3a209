package io.bellows.engine.internal.db;

/**
 * Crash recovery under MemoryLayout.OFF_HEAP, every scheme and policy: the store is reopened from the
 * file system as a crash left it, without the closed process's MemStore.
 */
class OffHeapCrashRecoveryTest extends CrashRecoveryTest {}
