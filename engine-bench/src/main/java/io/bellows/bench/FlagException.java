package io.bellows.bench;

/** A command line that cannot be run: unknown flag, malformed or out-of-range value. Exit code 2. */
final class FlagException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FlagException(String message) {
        super(message);
    }
}
