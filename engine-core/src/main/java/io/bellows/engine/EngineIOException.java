package io.bellows.engine;

import java.io.IOException;
import java.io.UncheckedIOException;

/** An I/O error surfaced through the (unchecked) engine API. */
public class EngineIOException extends UncheckedIOException {
    /** An I/O failure described by {@code message}, caused by {@code cause}. */
    public EngineIOException(String message, IOException cause) {
        super(message, cause);
    }
}
