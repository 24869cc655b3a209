package io.bellows.cli;

import io.bellows.engine.Engine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code bellows checkpoint DIR TARGET}: an openable copy of a closed store (Engine.checkpoint). */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        description = "Copy a closed store to TARGET (which must not exist): tables hard-linked where the file system"
                + " allows, the manifest written afresh, WAL files copied.")
final class CheckpointCommand extends StoreCommand {
    @Parameters(index = "1", paramLabel = "TARGET", description = "Where the copy goes; must not exist.")
    Path target;

    @Mixin
    OpenStore store;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        try (Engine db = store.open(dir)) {
            db.checkpoint(target);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("target", target);
            doc.put("seconds", seconds);
            output.printJson(out, doc);
        } else {
            out.printf("checkpoint of %s written to %s in %.3f s%n", dir, target, seconds);
            out.flush();
        }
        return 0;
    }
}
