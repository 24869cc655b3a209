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
    private final String history;

    StressFailure(String what, String key, String expected, String found, String history) {
        super(what + ": " + key + "\n  expected: " + expected + "\n  found:    " + found
                + (history.isEmpty() ? "" : "\n  history:\n" + history));
        this.what = what;
        this.key = key;
        this.expected = expected;
        this.found = found;
        this.history = history;
    }

    /**
     * The same failure with {@code context} (what the checking open found: its recovery and the store's
     * shape) after the history, for the next person to read the store's state from the report alone.
     */
    StressFailure withContext(String context) {
        StressFailure f = new StressFailure(what, key, expected, found, history + context);
        f.setStackTrace(getStackTrace());
        return f;
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
