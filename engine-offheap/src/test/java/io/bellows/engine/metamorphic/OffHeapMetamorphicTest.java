package io.bellows.engine.metamorphic;

/**
 * The metamorphic test under MemoryLayout.OFF_HEAP for every scheme and policy: the surefire configuration
 * of this module sets {@code bellows.test.layouts=OFF_HEAP}.
 */
class OffHeapMetamorphicTest extends MetamorphicTest {}
