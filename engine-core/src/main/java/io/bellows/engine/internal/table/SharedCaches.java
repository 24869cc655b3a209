package io.bellows.engine.internal.table;

import io.bellows.engine.SharedCache;
import java.util.function.Function;

/**
 * The engine's way to the {@link BlockCache} behind a public {@link SharedCache}, which keeps it out of the
 * API: SharedCache installs the accessor when its class initializes (the JDK's SharedSecrets pattern, as
 * {@code BatchAccess} for WriteBatch).
 */
public final class SharedCaches {
    private static volatile Function<SharedCache, BlockCache> accessor;

    private SharedCaches() {}

    /** Called once, by SharedCache's static initializer. */
    public static synchronized void install(Function<SharedCache, BlockCache> a) {
        if (accessor != null) {
            throw new IllegalStateException("the SharedCache accessor is already installed");
        }
        accessor = a;
    }

    /** A partition of {@code shared}'s cache for one engine: the shared memory bound, keys of its own. */
    public static BlockCache partition(SharedCache shared) {
        Function<SharedCache, BlockCache> a = accessor;
        if (a == null) {
            // The SharedCache exists, so its class has initialized and installed the accessor.
            throw new IllegalStateException("SharedCache has not installed its accessor");
        }
        return a.apply(shared).partition();
    }
}
