package io.bellows.cli;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bellows compact DIR}: compactRange over [--from, --to] (the whole store by default). */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = "Compact a closed store's key range (the whole store by default), as compactRange does.")
final class CompactCommand extends StoreCommand {
    @Option(names = "--from", description = "First key (UTF-8; 0x... for hex).")
    String from;

    @Option(names = "--to", description = "Last key, inclusive (UTF-8; 0x... for hex).")
    String to;

    @Mixin
    OpenStore store;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        EngineStats before;
        EngineStats after;
        try (Engine db = store.open(dir)) {
            before = db.stats();
            db.compactRange(DumpTableCommand.key(from), DumpTableCommand.key(to));
            after = db.stats();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("seconds", seconds);
            doc.put("tablesBefore", tables(before));
            doc.put("tablesAfter", tables(after));
            doc.put("compactionBytesWritten", after.io().compactionBytesWritten() - before.io().compactionBytesWritten());
            output.printJson(out, doc);
            return 0;
        }
        out.printf("compacted in %.3f s: tables per level %s -> %s, %d bytes written%n", seconds,
                tables(before), tables(after), after.io().compactionBytesWritten() - before.io().compactionBytesWritten());
        out.flush();
        return 0;
    }

    private static List<Integer> tables(EngineStats s) {
        List<Integer> t = new ArrayList<>();
        for (EngineStats.Level l : s.levels().perLevel()) {
            t.add(l.tables());
        }
        return t;
    }
}
