package io.bellows.engine;

/**
 * A configured memory limit was reached and waiting did not free memory: the OFF_HEAP MemStore's chunk
 * pool ({@link EngineOptions.Builder#offHeapLimit}) or the JVM's direct memory
 * ({@code -XX:MaxDirectMemorySize}). The message names the limit.
 */
public final class MemoryLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A refusal described by {@code message}. */
    public MemoryLimitException(String message) {
        super(message);
    }

    /** A refusal described by {@code message}, caused by {@code cause}. */
    public MemoryLimitException(String message, Throwable cause) {
        super(message, cause);
    }
}
