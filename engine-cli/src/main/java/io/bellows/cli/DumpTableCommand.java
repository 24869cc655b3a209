package io.bellows.cli;

import io.bellows.engine.internal.inspect.StoreTables;
import io.bellows.engine.internal.inspect.TableDump;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.version.FileNames;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bellows dump-table FILE}: a table's properties and entries (SSTables and HTables). */
@Command(name = "dump-table", mixinStandardHelpOptions = true,
        description = "Print a table file's properties and entries: SSTables in key order, HTables (LSM_TRIE)"
                + " in their bucket order. Exit status 1 when the file is damaged.")
final class DumpTableCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "FILE", description = "A table file (NNNNNN.sst).")
    Path file;

    @Option(names = "--from", description = "First user key to print (UTF-8; 0x... for hex).")
    String from;

    @Option(names = "--to", description = "Last user key to print, inclusive (UTF-8; 0x... for hex).")
    String to;

    @Option(names = "--limit", description = "Print at most this many entries (default 100; -1 for all).")
    long limit = 100;

    @Option(names = "--properties-only", description = "Print the properties only.")
    boolean propertiesOnly;

    @Override
    public Integer call() throws Exception {
        FileSystem fs = StoreDir.files(file);
        long number = Math.max(0, FileNames.number(file.getFileName().toString(), FileNames.TABLE_SUFFIX));
        byte[] lo = key(from);
        byte[] hi = key(to);
        Map<String, Object> properties;
        List<Map<String, Object>> entries = new ArrayList<>();
        boolean more = false;
        try (OpenTable t = StoreTables.everyFormat(fs).open(file, number)) {
            properties = TableDump.properties(t);
            if (!propertiesOnly) {
                try (InternalIterator it = t.iterator(false)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        boolean outside = lo != null && Arrays.compareUnsigned(it.key(), lo) < 0
                                || hi != null && Arrays.compareUnsigned(it.key(), hi) > 0;
                        if (outside) {
                            continue;
                        }
                        if (limit >= 0 && entries.size() >= limit) {
                            more = true;
                            break;
                        }
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("key", it.key());
                        e.put("sequence", it.sequence());
                        e.put("kind", it.kind() == InternalKeys.KIND_PUT ? "put" : "delete");
                        e.put("value", it.kind() == InternalKeys.KIND_PUT ? it.value() : null);
                        entries.add(e);
                    }
                }
            }
        }
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("file", file);
            doc.put("properties", properties);
            doc.put("entries", entries);
            doc.put("truncated", more);
            output.printJson(out, doc);
            return 0;
        }
        out.printf("%s%n", file);
        properties.forEach((k, v) -> out.printf("  %-20s %s%n", k, v instanceof byte[] b ? output.bytes(b) : v));
        for (Map<String, Object> e : entries) {
            out.printf("%s @%d %s%s%n", output.bytes((byte[]) e.get("key")), e.get("sequence"), e.get("kind"),
                    e.get("value") == null ? "" : " = " + output.bytes((byte[]) e.get("value")));
        }
        if (more) {
            out.printf("... (more entries; --limit %d)%n", limit);
        }
        out.flush();
        return 0;
    }

    /** A key given on the command line: 0x-prefixed hex, or UTF-8 text. */
    static byte[] key(String s) {
        if (s == null) {
            return null;
        }
        if (s.startsWith("0x")) {
            return HexFormat.of().parseHex(s.substring(2));
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
