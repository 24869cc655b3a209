package io.bellows.engine.db;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import java.nio.file.Path;

/** The engine: write path, read path, background work and recovery. */
public final class EngineImpl {
    private EngineImpl() {}

    public static Engine open(Path dir, EngineOptions options) {
        throw new UnsupportedOperationException("engine under construction");
    }
}
