package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Engine;
import io.bellows.engine.arch.ModuleConsumer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the module path, engine-core finds the OFF_HEAP layout through the service engine-offheap's
 * module-info provides: a consumer module that requires only io.bellows.engine opens an OFF_HEAP store.
 */
class ModulePathOffHeapTest {
    private static final String MAIN = String.join("\n",
            "package consumer;",
            "import io.bellows.engine.*;",
            "import java.nio.charset.StandardCharsets;",
            "import java.nio.file.Path;",
            "public class Main {",
            "  public static void main(String[] args) {",
            "    EngineOptions o = EngineOptions.builder().inMemoryCompaction(InMemoryCompaction.BASIC)",
            "        .memoryLayout(MemoryLayout.OFF_HEAP).build();",
            "    try (Engine db = Engine.open(Path.of(args[0]), o)) {",
            "      db.put(\"k\".getBytes(StandardCharsets.UTF_8), \"off\".getBytes(StandardCharsets.UTF_8));",
            "      System.out.println(\"value=\" + new String(db.get(\"k\".getBytes(StandardCharsets.UTF_8)),",
            "          StandardCharsets.UTF_8));",
            "    }",
            "  }",
            "}", "");

    @Test
    void offHeapLayoutIsFoundOnTheModulePath(@TempDir Path tmp) throws Exception {
        String modulePath = ModuleConsumer.modulePath(Engine.class, OffHeapLayoutProvider.class);
        Path classes = tmp.resolve("classes");
        assertEquals("", ModuleConsumer.compile(modulePath, tmp.resolve("src"), "requires io.bellows.engine;", "Main",
                MAIN, classes));
        String output = ModuleConsumer.run(modulePath, classes, tmp.resolve("store").toString());
        assertTrue(output.contains("value=off"), output);
    }
}
