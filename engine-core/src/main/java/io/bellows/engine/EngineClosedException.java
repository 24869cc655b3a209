package io.bellows.engine;

/** Thrown by any call on an engine, snapshot or cursor after it was closed. */
public class EngineClosedException extends IllegalStateException {
    /** A call made after close, described by {@code message}. */
    public EngineClosedException(String message) {
        super(message);
    }
}
