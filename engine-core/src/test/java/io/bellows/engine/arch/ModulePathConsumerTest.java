package io.bellows.engine.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Engine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny consumer module built and run on the module path: it opens a store, writes and reads back
 * through {@code io.bellows.engine}; a consumer that imports an internal package must not compile. (The
 * rest of the suite runs on the class path, the other way users consume the jar.)
 */
class ModulePathConsumerTest {
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
        String modulePath = ModuleConsumer.modulePath(Engine.class);
        Path classes = tmp.resolve("classes");
        String out = ModuleConsumer.compile(modulePath, tmp.resolve("src"), "requires io.bellows.engine;", "Main",
                MAIN, classes);
        assertEquals("", out, "consumer must compile against the exported API");

        String refused = ModuleConsumer.compile(modulePath, tmp.resolve("sneaky"), "requires io.bellows.engine;",
                "Sneaky", SNEAKY, tmp.resolve("sneaky-classes"));
        assertTrue(refused.contains("io.bellows.engine.internal.db") && refused.contains("not"),
                "an internal package must not be visible on the module path:\n" + refused);

        String output = ModuleConsumer.run(modulePath, classes, tmp.resolve("store").toString());
        assertTrue(output.contains("value=v maxKey=" + Engine.MAX_KEY_LENGTH), output);
    }
}
