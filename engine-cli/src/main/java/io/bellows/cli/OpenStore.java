package io.bellows.cli;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.inspect.ManifestView;
import io.bellows.engine.internal.io.DefaultFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Opens a closed store through the public API with the scheme its manifest records and default options
 * otherwise (a store created with other fixed options, such as numLevels, names them in the refusal).
 * The engine takes the directory lock, so a store another process holds open is refused.
 */
final class OpenStore {
    @Option(names = "--num-levels", description = "The numLevels the store was created with (default: the scheme's).")
    Integer numLevels;

    Engine open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        String scheme = ManifestView.read(DefaultFileSystem.forDirectory(dir, false), dir).scheme();
        EngineOptions.Builder b = EngineOptions.builder().compaction(CompactionStyle.valueOf(scheme));
        if (numLevels != null) {
            b.numLevels(numLevels);
        }
        return Engine.open(dir, b.build());
    }
}
