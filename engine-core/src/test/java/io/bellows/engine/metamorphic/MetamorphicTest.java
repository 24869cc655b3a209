package io.bellows.engine.metamorphic;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TestSeeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The metamorphic test (Pebble's {@code metamorphic/}): one seeded op log (puts, deletes, batches, gets,
 * cursors, snapshots, flushes, range compactions, reopens, crash checks and crash restarts) runs against
 * every scheme × policy × layout, and every observable result must equal the model's, so all
 * configurations agree with each other.
 *
 * <p>A failure prints the seed and a minimized op log (ops removed while the failure persists), saved to
 * a file that replays with one command:
 * {@code mvn -pl engine-core test -Dtest=MetamorphicTest -Dbellows.metamorphic.replay=FILE}.
 * The CI run is {@value #CI_LOGS} logs of {@value #CI_OPS} ops per configuration;
 * {@code -Dbellows.metamorphic.logs=N -Dbellows.metamorphic.ops=M} runs longer (docs/testing.md).
 */
class MetamorphicTest {
    static final int CI_LOGS = 2;
    static final int CI_OPS = 1500;

    @ParameterizedTest(name = "{0}/{1}/{2}")
    @MethodSource("io.bellows.engine.EngineConfigs#all")
    void everyConfigurationMatchesTheModel(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout)
            throws IOException {
        EngineOptions options = options(style, policy, layout);
        String replay = System.getProperty("bellows.metamorphic.replay");
        if (replay != null) {
            List<Op> ops = new ArrayList<>();
            for (String line : Files.readAllLines(Path.of(replay))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    ops.add(Op.parse(line));
                }
            }
            new OpRunner(options).run(ops);
            return;
        }
        int logs = Integer.getInteger("bellows.metamorphic.logs", CI_LOGS);
        int n = Integer.getInteger("bellows.metamorphic.ops", CI_OPS);
        // One seed for every configuration: each log runs everywhere.
        Random seeds = new Random(TestSeeds.seed("MetamorphicTest"));
        for (int i = 0; i < logs; i++) {
            long seed = seeds.nextLong();
            List<Op> ops = new OpGenerator(seed).generate(n);
            try {
                new OpRunner(options).run(ops);
            } catch (OpRunner.Divergence d) {
                List<Op> minimized = Shrinker.shrink(ops, options, d);
                Path file = Files.createTempFile("bellows-metamorphic-", ".ops");
                StringBuilder text = new StringBuilder("# " + style + "/" + policy + "/" + layout + ", log seed "
                        + seed + ", minimized from " + ops.size() + " ops\n");
                for (Op op : minimized) {
                    text.append(op).append('\n');
                }
                Files.writeString(file, text);
                AssertionError e = new AssertionError(style + "/" + policy + "/" + layout + ": log " + i + " (seed "
                        + seed + ") diverged: " + d.getMessage() + "\nminimized to " + minimized.size() + " ops:\n"
                        + text + "replay: mvn -pl engine-core test -Dtest=MetamorphicTest"
                        + " -Dbellows.metamorphic.replay=" + file, d);
                throw e;
            }
        }
    }

    static EngineOptions options(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout) {
        return EngineConfigs.small(style, policy, layout).build();
    }
}
