package io.bellows.engine;

/** Thrown by any call on an engine, snapshot or cursor after it was closed. */
public class EngineClosedException extends IllegalStateException {
    public EngineClosedException(String message) {
        super(message);
    }
}
