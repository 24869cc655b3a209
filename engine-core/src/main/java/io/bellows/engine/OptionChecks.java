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
}
