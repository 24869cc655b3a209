package io.bellows.cli;

import io.bellows.engine.Engine;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code bellows get DIR KEY}: one key's value; exit status 1 when the key is absent. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Print the value of KEY in a closed store. Exit status 1 when the key is absent.")
final class GetCommand extends StoreCommand {
    @Parameters(index = "1", paramLabel = "KEY", description = "The key (UTF-8; 0x... for hex).")
    String key;

    @Mixin
    OpenStore store;

    @Override
    public Integer call() throws Exception {
        byte[] k = DumpTableCommand.key(key);
        byte[] v;
        try (Engine db = store.open(dir)) {
            v = db.get(k);
        }
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("key", k);
            doc.put("found", v != null);
            doc.put("value", v);
            output.printJson(out, doc);
        } else if (v == null) {
            spec.commandLine().getErr().printf("%s: not found%n", output.bytes(k));
        } else {
            out.println(output.bytes(v));
        }
        out.flush();
        return v == null ? 1 : 0;
    }
}
