package io.bellows.engine;

/**
 * The randomized model test (TreeMap reference, reopen) under MemoryLayout.OFF_HEAP for every scheme and
 * policy: the surefire configuration of this module sets {@code bellows.test.layouts=OFF_HEAP}.
 */
class OffHeapModelConformanceTest extends ModelConformanceTest {}
