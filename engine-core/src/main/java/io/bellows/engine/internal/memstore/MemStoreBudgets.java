package io.bellows.engine.internal.memstore;

import io.bellows.engine.WriteBufferManager;
import java.util.function.Function;

/**
 * The engine's way to the {@link MemStoreBudget} behind a public {@link WriteBufferManager}, which keeps it
 * out of the API: WriteBufferManager installs the accessor when its class initializes (the JDK's
 * SharedSecrets pattern, as {@code SharedCaches} for SharedCache).
 */
public final class MemStoreBudgets {
    private static volatile Function<WriteBufferManager, MemStoreBudget> accessor;

    private MemStoreBudgets() {}

    /** Called once, by WriteBufferManager's static initializer. */
    public static synchronized void install(Function<WriteBufferManager, MemStoreBudget> a) {
        if (accessor != null) {
            throw new IllegalStateException("the WriteBufferManager accessor is already installed");
        }
        accessor = a;
    }

    public static MemStoreBudget of(WriteBufferManager manager) {
        Function<WriteBufferManager, MemStoreBudget> a = accessor;
        if (a == null) {
            // The manager exists, so its class has initialized and installed the accessor.
            throw new IllegalStateException("WriteBufferManager has not installed its accessor");
        }
        return a.apply(manager);
    }
}
