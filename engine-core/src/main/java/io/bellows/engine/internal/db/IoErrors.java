package io.bellows.engine.internal.db;

import io.bellows.engine.EngineIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;

/** Turns an IOException into the API's EngineIOException with a message that says what happened. */
final class IoErrors {
    private IoErrors() {}

    /** {@code what} names the operation, e.g. "get" or "cannot open /x". */
    static EngineIOException wrap(String what, IOException e) {
        if (e instanceof InterruptedIOException || e instanceof ClosedByInterruptException) {
            return new EngineIOException(what + " interrupted: the calling thread was interrupted during file I/O"
                    + " (its interrupt status is kept)", e);
        }
        return new EngineIOException(what + ": " + describe(e), e);
    }

    /** The message of {@code e}, or its type when it has none (many JDK I/O exceptions carry only a path). */
    static String describe(IOException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
    }
}
