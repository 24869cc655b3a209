package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict has no winner where no configuration has the figure (compare mode's runs cover the rest). */
class WinnersTest {
    @Test
    void noConfigurationThatRanMeansNoWinner() {
        List<EngineRun> runs = List.of(
                new EngineRun("bellows:LSM_TRIE/NONE", "o", List.of(WorkloadResult.notRun(Workload.REPLAY,
                        WorkloadResult.Outcome.NOT_SUPPORTED, "the trace opens cursors"))),
                new EngineRun("rocksdb", "o", List.of(WorkloadResult.notRun(Workload.REPLAY,
                        WorkloadResult.Outcome.FAILED, "its JVM exited with code 1"))));
        assertNull(Winners.best(runs, 0, WorkloadResult::opsPerSecond, true));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Winners.print(new PrintStream(out, true, StandardCharsets.UTF_8), runs);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*replay\\s+ops/s\\s+-  -\n.*"), text);
        assertTrue(text.matches("(?s).*s-amp\\s+-  -\n.*"), text);
    }
}
