package io.bellows.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.TestSeeds;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CI mode of bellows-stress: a few crash cycles per scheme (every CompactionStyle) (each a SIGKILLed child JVM and a
 * checked reopen) with short runs. The long mode is the same tool run for thousands of cycles
 * (docs/stress.md). Replay the options of a failure with {@code -Dbellows.seed=N}.
 */
class CrashCyclesTest {
    static final int CYCLES_PER_SCHEME = 12;

    @Test
    void crashCyclesAcrossSchemes() {
        long seed = TestSeeds.seed("CrashCyclesTest");
        // Under target/, not a JUnit temporary directory: a failure keeps the store and the cycle's logs
        // for inspection (bellows-cli dump-wal, dump-manifest); a passing run removes them.
        Path dir = Path.of("target", "crash-cycles", seed + "-" + System.currentTimeMillis())
                .toAbsolutePath();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(new TeeStream(bytes, System.out), true, StandardCharsets.UTF_8);
        int code = BellowsStress.run(out, "--seed=" + seed, "--cycles=" + CYCLES_PER_SCHEME, "--dir=" + dir,
                "--kill-min-ms=50", "--kill-max-ms=700", "--max-threads=4",
                "--child-jvm-args=-Xmx512m -ea -XX:TieredStopAtLevel=1");
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, "bellows-stress failed (seed " + seed + "); its report is above");
        int cycles = CompactionStyle.values().length * CYCLES_PER_SCHEME;
        assertTrue(report.contains("PASSED seed=" + seed + ": " + cycles + " cycles"), report);
    }

    /** Keeps the report for the assertion while it also streams to the test's output. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream a;
        private final java.io.OutputStream b;

        TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws java.io.IOException {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }
}
