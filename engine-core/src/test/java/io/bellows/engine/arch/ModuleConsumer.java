package io.bellows.engine.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds and runs a one-class consumer module ({@code consumer}, main class {@code consumer.Main}) on the
 * module path, the way a JPMS user of Bellows would; engine-offheap reuses it for its layout.
 */
public final class ModuleConsumer {
    private ModuleConsumer() {}

    /**
     * The module path of the modules whose classes hold {@code anchors} (each must be built as a named
     * module) plus every dependency jar on the test class path except the test frameworks.
     */
    public static String modulePath(Class<?>... anchors) throws Exception {
        List<String> path = new ArrayList<>();
        for (Class<?> c : anchors) {
            Path classes = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertTrue(isModule(classes), "not built as a module: " + classes);
            path.add(classes.toString());
        }
        int modules = path.size();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            boolean testOnly = name.startsWith("junit") || name.startsWith("opentest4j")
                    || name.startsWith("apiguardian") || name.startsWith("archunit") || name.startsWith("slf4j-simple")
                    || name.startsWith("engine-core") && name.contains("tests");
            if (e.endsWith(".jar") && !testOnly) {
                path.add(e);
            }
        }
        assertNotEquals(modules, path.size(), "no dependency jars on the class path");
        return path.stream().collect(Collectors.joining(File.pathSeparator));
    }

    /** Whether a classes directory or jar holds a module-info.class at its root. */
    private static boolean isModule(Path classes) throws IOException {
        if (Files.isDirectory(classes)) {
            return Files.exists(classes.resolve("module-info.class"));
        }
        try (JarFile jar = new JarFile(classes.toFile())) {
            return jar.getEntry("module-info.class") != null;
        }
    }

    /**
     * Writes {@code module consumer { requires ...; }} and {@code consumer/<ClassName>.java} under
     * {@code dir}, compiles them into {@code out}; returns javac's diagnostics, empty on success.
     */
    public static String compile(String modulePath, Path dir, String requires, String className, String source,
            Path out) throws IOException {
        Files.createDirectories(dir.resolve("consumer"));
        Files.writeString(dir.resolve("module-info.java"), "module consumer { " + requires + " }\n");
        Files.writeString(dir.resolve("consumer").resolve(className + ".java"), source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--module-path", modulePath, "-d", out.toString(), "-nowarn",
                "-Xlint:none"));
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        ByteArrayOutputStream diag = new ByteArrayOutputStream();
        int rc = javac.run(null, diag, diag, args.toArray(new String[0]));
        String text = diag.toString(StandardCharsets.UTF_8);
        return rc == 0 ? "" : text.isEmpty() ? "javac failed" : text;
    }

    /** Runs {@code consumer/consumer.Main} with {@code args}; asserts exit 0 and returns its output. */
    public static String run(String modulePath, Path classes, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--module-path", classes + File.pathSeparator + modulePath,
                "-m", "consumer/consumer.Main"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "consumer did not finish");
        assertEquals(0, p.exitValue(), output);
        return output;
    }
}
