package io.bellows.stress;

/**
 * A broken guarantee found by a check: the key (or group, or thread) concerned, what the history
 * allows, what the store holds, and the history that decided it.
 */
final class StressFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final String what;
    private final String key;
    private final String expected;
    private final String found;

    StressFailure(String what, String key, String expected, String found, String history) {
        super(what + ": " + key + "\n  expected: " + expected + "\n  found:    " + found
                + (history.isEmpty() ? "" : "\n  history:\n" + history));
        this.what = what;
        this.key = key;
        this.expected = expected;
        this.found = found;
    }

    String what() {
        return what;
    }

    String key() {
        return key;
    }

    String expected() {
        return expected;
    }

    String found() {
        return found;
    }
}
