package io.bellows.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill the stress tool relies on: {@link Process#destroyForcibly()} sends SIGKILL (exit status 137,
 * no shutdown hook runs), unlike {@link Process#destroy()}, which sends SIGTERM (143, hooks run).
 */
class KillSignalTest {
    @TempDir
    Path dir;

    /** A child that marks its shutdown hook's run in a file. */
    public static final class HookedChild {
        public static void main(String[] args) throws Exception {
            Path mark = Path.of(args[0]);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.writeString(mark, "hook ran");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
            System.out.println("ready");
            System.out.flush();
            Thread.sleep(60_000);
        }
    }

    private static int startAndStop(Path mark, boolean forcibly) throws Exception {
        Process p = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                System.getProperty("java.class.path"), HookedChild.class.getName(), mark.toString())).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("ready", r.readLine());
            if (forcibly) {
                p.destroyForcibly();
            } else {
                p.destroy();
            }
            return p.waitFor();
        }
    }

    @Test
    void destroyForciblyIsSigkill() throws Exception {
        Path mark = dir.resolve("killed");
        assertEquals(ChildRun.SIGKILL_EXIT, startAndStop(mark, true));
        assertFalse(Files.exists(mark), "a shutdown hook ran: the child was not killed by SIGKILL");
    }

    @Test
    void destroyIsSigtermForContrast() throws Exception {
        Path mark = dir.resolve("terminated");
        assertEquals(128 + 15, startAndStop(mark, false));
        assertTrue(Files.exists(mark));
    }
}
