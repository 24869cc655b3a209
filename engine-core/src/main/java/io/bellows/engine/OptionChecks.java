package io.bellows.engine;

/** The range check every options builder uses, so each limit error reads the same. Not API. */
final class OptionChecks {
    private OptionChecks() {}

    /** {@code v}, or an IllegalArgumentException naming the option {@code name} and its limits. */
    static long range(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    /** {@code v} if it lies in [min, max] (NaN does not), else an error naming the option and its limits. */
    static double fraction(String name, double v, double min, double max) {
        if (!(v >= min && v <= max)) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    /**
     * The layout's cross-option limits. {@code maxValueLength} is -1 when left at its default: a write that
     * cannot fit is then refused when made, while an explicit one larger than the whole off-heap budget
     * could never be written, so the pair is refused now.
     */
    static void memoryLayout(MemoryLayout layout, boolean mslab, long maxValueLength, long offHeapLimit,
            long memstoreSize) {
        if (layout == MemoryLayout.OFF_HEAP && !mslab) {
            throw new IllegalArgumentException("memoryLayout OFF_HEAP keeps every cell in off-heap chunks;"
                    + " it cannot be combined with mslab(false)");
        }
        if (layout == MemoryLayout.OFF_HEAP && maxValueLength >= 0 && offHeapLimit > 0 && maxValueLength > offHeapLimit) {
            throw new IllegalArgumentException("maxValueLength (" + maxValueLength + ") exceeds offHeapLimit ("
                    + offHeapLimit + "): under memoryLayout OFF_HEAP every value lives in the off-heap MemStore");
        }
        if (offHeapLimit > 0 && offHeapLimit < 3 * memstoreSize) {
            throw new IllegalArgumentException("offHeapLimit (" + offHeapLimit + ") must be at least three"
                    + " times memstoreSize (" + 3 * memstoreSize + "): a full MemStore, the one being flushed"
                    + " and their index chunks must fit");
        }
    }
}
