package io.bellows.engine.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Engine;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny consumer module built and run on the module path: it opens a store, writes and reads back
 * through {@code io.bellows.engine}; a second consumer that imports an internal package must not compile.
 * (The rest of the suite runs on the class path, the other way users consume the jar.)
 */
class ModulePathConsumerTest {
    private static final String MODULE_INFO = "module consumer { requires io.bellows.engine; }\n";
    private static final String MAIN = String.join("\n",
            "package consumer;",
            "import io.bellows.engine.*;",
            "import java.nio.charset.StandardCharsets;",
            "import java.nio.file.Path;",
            "public class Main {",
            "  public static void main(String[] args) {",
            "    try (Engine db = Engine.open(Path.of(args[0]), EngineOptions.defaults())) {",
            "      db.put(\"k\".getBytes(StandardCharsets.UTF_8), \"v\".getBytes(StandardCharsets.UTF_8));",
            "      db.flush();",
            "      byte[] v = db.get(\"k\".getBytes(StandardCharsets.UTF_8));",
            "      System.out.println(\"value=\" + new String(v, StandardCharsets.UTF_8) + \" maxKey=\" + Engine.MAX_KEY_LENGTH);",
            "    }",
            "  }",
            "}", "");
    private static final String SNEAKY = String.join("\n",
            "package consumer;",
            "public class Sneaky {",
            "  Object o = io.bellows.engine.internal.db.EngineImpl.class;",
            "}", "");

    @Test
    void consumerOnTheModulePathOpensAStoreButSeesNoInternals(@TempDir Path tmp) throws Exception {
        String modulePath = modulePath();
        Path src = write(tmp.resolve("src"), MAIN);
        Path classes = tmp.resolve("classes");
        String out = compile(modulePath, src, classes);
        assertEquals("", out, "consumer must compile against the exported API");

        Path sneaky = write(tmp.resolve("sneaky"), SNEAKY);
        String refused = compile(modulePath, sneaky, tmp.resolve("sneaky-classes"));
        assertTrue(refused.contains("io.bellows.engine.internal.db") && refused.contains("not"),
                "an internal package must not be visible on the module path:\n" + refused);

        Path store = tmp.resolve("store");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--module-path", classes + File.pathSeparator + modulePath,
                "-m", "consumer/consumer.Main", store.toString()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "consumer did not finish");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("value=v maxKey=" + Engine.MAX_KEY_LENGTH), output);
    }

    /** engine-core's classes (with module-info) and its runtime dependencies from the test class path. */
    private static String modulePath() throws Exception {
        Path core = Path.of(Engine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.exists(core.resolve("module-info.class")), "engine-core is not built as a module: " + core);
        List<String> path = new ArrayList<>();
        path.add(core.toString());
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            boolean testOnly = name.startsWith("junit") || name.startsWith("opentest4j")
                    || name.startsWith("apiguardian") || name.startsWith("archunit") || name.startsWith("slf4j-simple");
            if (e.endsWith(".jar") && !testOnly) {
                path.add(e);
            }
        }
        assertNotEquals(1, path.size(), "no dependency jars on the class path");
        return path.stream().collect(Collectors.joining(File.pathSeparator));
    }

    private static Path write(Path dir, String mainSource) throws IOException {
        Files.createDirectories(dir.resolve("consumer"));
        Files.writeString(dir.resolve("module-info.java"), MODULE_INFO);
        String name = mainSource.contains("class Sneaky") ? "Sneaky.java" : "Main.java";
        Files.writeString(dir.resolve("consumer").resolve(name), mainSource);
        return dir;
    }

    /** Compiles the consumer; returns the compiler's diagnostics, empty on success. */
    private static String compile(String modulePath, Path src, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--module-path", modulePath, "-d", out.toString(),
                "-nowarn", "-Xlint:none"));
        try (var files = Files.walk(src)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        ByteArrayOutputStream diag = new ByteArrayOutputStream();
        int rc = javac.run(null, diag, diag, args.toArray(new String[0]));
        String text = diag.toString(StandardCharsets.UTF_8);
        return rc == 0 ? "" : text.isEmpty() ? "javac failed" : text;
    }
}
