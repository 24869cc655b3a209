package io.bellows.stress;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts one child JVM ({@link StressChild}) with this JVM's java binary and class path, waits for the
 * moment its {@link KillPlan} names and kills it with {@link Process#destroyForcibly()}, which on Linux
 * and macOS sends SIGKILL: the child gets no chance to run a shutdown hook, close a file or flush a
 * buffer. The exit status proves it: a JVM killed by signal 9 reports 128 + 9 = 137, so any other
 * status (the child failed or exited by itself) is an error. The child's stdout goes to
 * {@code child.out} beside its logs, its stderr to {@code child.err}.
 */
final class ChildRun {
    static final int SIGKILL_EXIT = 128 + 9;
    private static final long START_TIMEOUT_MS = 120_000;

    /** When to kill: {@code delayMs} after the child prints {@code opening} (during the open) or {@code opened}. */
    record KillPlan(boolean duringOpen, long delayMs) {
        @Override
        public String toString() {
            return (duringOpen ? "open+" : "run+") + delayMs + "ms";
        }
    }

    /** What happened: the phase the kill hit, the child's open time and last progress line, or its failure. */
    record Outcome(boolean killedInOpen, long openMs, String lastProgress, String failure) {
        /** A counter of the last progress line ({@code flushes}, {@code compactions}, ...), 0 before the first. */
        long progress(String name) {
            if (lastProgress == null) {
                return 0;
            }
            for (String field : lastProgress.split(" ")) {
                if (field.startsWith(name + "=")) {
                    return Long.parseLong(field.substring(name.length() + 1));
                }
            }
            return 0;
        }
    }

    private ChildRun() {}

    static Outcome run(List<String> jvmArgs, Path config, Path dir, KillPlan plan) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StressChild.class.getName());
        cmd.add(config.toString());
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("child.err").toFile()).start();
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch opened = new CountDownLatch(1);
        String[] last = new String[3];
        AtomicBoolean killing = new AtomicBoolean();
        Thread reader = new Thread(() -> readLines(p, dir.resolve("child.out"), opening, opened, last, killing),
                "child-stdout");
        reader.setDaemon(true);
        reader.start();
        CountDownLatch mark = plan.duringOpen() ? opening : opened;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (!mark.await(20, TimeUnit.MILLISECONDS) && p.isAlive() && System.nanoTime() < deadline) {
            // polls, so that a child that dies before printing the mark is not waited for until the deadline
        }
        if (mark.getCount() == 0) {
            p.waitFor(plan.delayMs(), TimeUnit.MILLISECONDS);
        }
        boolean exitedByItself = !p.isAlive();
        if (exitedByItself) {
            // Its last lines (a FAILED report) are still in the pipe, which destroyForcibly would close.
            reader.join(10_000);
        }
        boolean inOpen = opened.getCount() > 0;
        killing.set(true);
        p.destroyForcibly();
        int code = p.waitFor();
        reader.join(10_000);
        p.getOutputStream().close();
        String failure = null;
        synchronized (last) {
            if (last[2] != null) {
                failure = "child reported: " + last[2];
            } else if (exitedByItself || code != SIGKILL_EXIT) {
                failure = "child exited with status " + code + (exitedByItself ? " before the kill" : "")
                        + " (expected " + SIGKILL_EXIT + ", SIGKILL); see " + dir.resolve("child.err");
            } else if (mark.getCount() > 0) {
                failure = "child did not print " + (plan.duringOpen() ? "opening" : "opened") + " within "
                        + START_TIMEOUT_MS + " ms; see " + dir.resolve("child.err");
            } else if (last[1] != null && !last[1].endsWith(" errors=0")) {
                failure = "background errors in the child: " + last[1] + "; see " + dir.resolve("child.err");
            }
            return new Outcome(inOpen, last[0] == null ? -1 : Long.parseLong(last[0]), last[1], failure);
        }
    }

    private static void readLines(Process p, Path out, CountDownLatch opening, CountDownLatch opened, String[] last,
            AtomicBoolean killing) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer w = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                w.write(line);
                w.write('\n');
                synchronized (last) {
                    if (line.equals("opening")) {
                        opening.countDown();
                    } else if (line.startsWith("opened ")) {
                        last[0] = line.substring(7);
                        opened.countDown();
                    } else if (line.startsWith("progress ")) {
                        last[1] = line.substring(9);
                    } else if (line.startsWith("FAILED ")) {
                        last[2] = line.substring(7);
                    }
                }
            }
        } catch (IOException e) {
            // destroyForcibly closes the pipe under a read: only an error before the kill is one.
            synchronized (last) {
                if (last[2] == null && !killing.get()) {
                    last[2] = "cannot read the child's output: " + e;
                }
            }
        }
    }
}
