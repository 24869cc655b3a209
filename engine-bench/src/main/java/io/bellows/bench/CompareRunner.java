package io.bellows.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Compare mode (--engines): runs the command's workloads once per engine configuration, one after
 * the other, each in a child JVM started with this JVM's java, class path and JVM options, so that
 * neither engine's heap, native memory, JIT or GC disturbs the other's figures. A child is the same
 * command with --engine naming its configuration; it writes its results as JSON to a file, which the
 * parent reads back. The child's report is echoed line by line, prefixed with its configuration.
 *
 * <p>One configuration's trouble does not cost the others' results: a workload a configuration
 * cannot run is reported by its child as not supported, and a child that dies (crash, exit code other
 * than 0) keeps the workloads it finished (the child rewrites its JSON after each) while the rest are
 * marked failed, with the exit code; the comparison of everything else is printed and written.
 */
final class CompareRunner {
    /**
     * Flags the parent handles itself and does not pass to the children. --memory_layout is resolved
     * into each configuration's label, which names any layout but the default ON_HEAP.
     */
    private static final Set<String> PARENT_FLAGS =
            Set.of("engines", "baseline", "engine", "csv", "json", "out", "progress", "db", "memory_layout");

    private CompareRunner() {}

    static List<EngineRun> run(String[] args, BenchOptions o, PrintStream out) {
        List<String> forwarded = new ArrayList<>();
        for (String arg : args) {
            String name = arg.substring(2, arg.indexOf('=') < 0 ? arg.length() : arg.indexOf('='));
            if (!PARENT_FLAGS.contains(name)) {
                forwarded.add(arg);
            }
        }
        boolean progress = BellowsBench.progressWanted(o);
        List<EngineRun> runs = new ArrayList<>();
        Path scratch;
        try {
            scratch = Files.createTempDirectory("bellows-compare-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
        try {
            out.println("bellows-bench compare mode: " + o.engines().size() + " configurations, each in its own JVM");
            for (EngineSpec spec : o.engines()) {
                List<String> childArgs = BenchFlags.forwardedTo(spec, forwarded);
                Path json = scratch.resolve(spec.fileName() + ".json");
                childArgs.add("--engine=" + spec.label());
                childArgs.add("--json=" + json);
                childArgs.add("--progress=" + progress);
                if (o.db() != null) {
                    childArgs.add("--db=" + o.db().resolve(spec.fileName()));
                }
                Path log = o.out() == null ? null : o.out().resolve(spec.fileName() + ".log");
                int code = runChild(spec, childArgs, log, out);
                runs.add(childRun(spec.label(), json, code, o.benchmarks()));
            }
        } finally {
            deleteQuietly(scratch);
        }
        int baseline = o.engines().indexOf(o.baseline());
        ComparisonReport.print(out, runs, baseline);
        if (o.csv() != null) {
            ComparisonReport.writeCsv(o.csv(), runs, baseline);
        }
        BellowsBench.writeFiles(o, out, runs, baseline);
        for (EngineRun run : runs) {
            run.results().stream().filter(r -> r.outcome() == WorkloadResult.Outcome.FAILED).findFirst()
                    .ifPresent(r -> out.println("failed: " + run.engine() + ", " + r.reason()));
        }
        return runs;
    }

    /**
     * What the child of configuration {@code label} measured: its results file, completed with failed
     * cells for the workloads it did not reach when it ended with exit code {@code exitCode} (the
     * file then holds the workloads it finished, or is missing or cut short if it died early).
     */
    static EngineRun childRun(String label, Path json, int exitCode, List<Workload> benchmarks) {
        List<WorkloadResult> results = new ArrayList<>();
        String options = "unknown: its JVM wrote no results";
        if (Files.exists(json)) {
            try {
                EngineRun run = ResultJson.read(json).get(0);
                results.addAll(run.results());
                options = run.options();
            } catch (RuntimeException e) {
                if (exitCode == 0) {
                    throw e;
                }
            }
        }
        if (exitCode == 0 && results.size() == benchmarks.size()) {
            return new EngineRun(label, options, results);
        }
        String reason = exitCode == 0 ? "its JVM ended without finishing" : "its JVM " + exit(exitCode);
        for (int i = results.size(); i < benchmarks.size(); i++) {
            results.add(WorkloadResult.notRun(benchmarks.get(i), WorkloadResult.Outcome.FAILED, reason));
        }
        return new EngineRun(label, options, results);
    }

    /** How a child JVM ended with {@code code}: a code above 128 is the JVM killed by signal code - 128. */
    static String exit(int code) {
        return "exited with code " + code + (code > 128 ? " (killed by signal " + (code - 128) + ")"
                : " (its error is above)");
    }

    /** The command that starts a child: this JVM's java, JVM options and class path. */
    static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // NB: a debugger or agent port can be bound once; the child would fail to start.
            if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Xrunjdwp") && !a.startsWith("-javaagent")) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(BellowsBench.class.getName());
        return cmd;
    }

    /** Runs one configuration's child JVM, echoing its report, and returns its exit code. */
    private static int runChild(EngineSpec spec, List<String> args, Path log, PrintStream out) {
        List<String> cmd = javaCommand();
        cmd.addAll(args);
        out.println();
        out.println("== " + spec.label());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        String prefix = "[" + spec.label() + "] ";
        try {
            if (log != null) {
                Files.createDirectories(log.toAbsolutePath().getParent());
            }
            Process p = pb.start();
            p.getOutputStream().close();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                    BufferedWriter w = log == null ? null : Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.println(prefix + line);
                    if (w != null) {
                        w.write(line);
                        w.newLine();
                    }
                }
            }
            int code = p.waitFor();
            if (code != 0) {
                out.println("== " + spec.label() + " failed: its JVM " + exit(code) + "; the other configurations go on");
            }
            return code;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + spec.label() + " in a child JVM", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + spec.label() + " ran", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // NB: only small result files live here; leaving them in the temp directory harms nothing.
        }
    }
}
