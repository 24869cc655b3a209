package io.bellows.cli;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.ReadOptions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bellows scan DIR}: the live entries in key order, from --from to --to. */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = "Print the live entries of a closed store in key order (not on LSM_TRIE stores, which keep"
                + " no key order).")
final class ScanCommand extends StoreCommand {
    @Option(names = "--from", description = "First key (UTF-8; 0x... for hex).")
    String from;

    @Option(names = "--to", description = "Last key, inclusive (UTF-8; 0x... for hex).")
    String to;

    @Option(names = "--limit", description = "Print at most this many entries (default 100; -1 for all).")
    long limit = 100;

    @Option(names = "--reverse", description = "Descending key order: from --to (or the last key) down to --from.")
    boolean reverse;

    @Mixin
    OpenStore store;

    @Override
    public Integer call() throws Exception {
        byte[] lo = DumpTableCommand.key(from);
        byte[] hi = DumpTableCommand.key(to);
        List<Map<String, Object>> entries = new ArrayList<>();
        boolean more = false;
        try (Engine db = store.open(dir); Cursor c = db.cursor(ReadOptions.defaults())) {
            if (reverse) {
                if (hi == null) {
                    c.seekToLast();
                } else {
                    c.seekForPrev(hi);
                }
            } else if (lo == null) {
                c.seekToFirst();
            } else {
                c.seek(lo);
            }
            while (c.isValid() && (reverse ? lo == null || Arrays.compareUnsigned(c.key(), lo) >= 0
                    : hi == null || Arrays.compareUnsigned(c.key(), hi) <= 0)) {
                if (limit >= 0 && entries.size() >= limit) {
                    more = true;
                    break;
                }
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("key", c.key());
                e.put("value", c.value());
                entries.add(e);
                if (reverse) {
                    c.prev();
                } else {
                    c.next();
                }
            }
        }
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("entries", entries);
            doc.put("truncated", more);
            output.printJson(out, doc);
            return 0;
        }
        for (Map<String, Object> e : entries) {
            out.printf("%s = %s%n", output.bytes((byte[]) e.get("key")), output.bytes((byte[]) e.get("value")));
        }
        if (more) {
            out.printf("... (more entries; --limit %d)%n", limit);
        }
        out.flush();
        return 0;
    }
}
