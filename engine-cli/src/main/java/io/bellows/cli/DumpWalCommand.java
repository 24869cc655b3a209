package io.bellows.cli;

import io.bellows.engine.internal.inspect.LogScan;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.key.InternalKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bellows dump-wal FILE}: the records of a WAL file, their sequences, and a torn tail or damage. */
@Command(name = "dump-wal", mixinStandardHelpOptions = true,
        description = "Print the records of a WAL file (offset, sequence range, operations), where a torn tail"
                + " begins, and the first damage. Exit status 1 when the file is damaged.")
final class DumpWalCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "FILE", description = "A WAL file (NNNNNN.log).")
    Path file;

    @Option(names = "--ops", description = "Also print every operation (kind, sequence, key, value).")
    boolean ops;

    @Option(names = "--limit", description = "Print at most this many operations with --ops (default: all).")
    long limit = Long.MAX_VALUE;

    @Override
    public Integer call() throws Exception {
        FileSystem fs = StoreDir.files(file);
        List<Map<String, Object>> operations = new ArrayList<>();
        LogScan.Result r = LogScan.scan(fs.readAll(file), file, !ops ? null : (seq, kind, key, value) -> {
            if (operations.size() < limit) {
                Map<String, Object> op = new LinkedHashMap<>();
                op.put("sequence", seq);
                op.put("kind", kind == InternalKeys.KIND_PUT ? "put" : "delete");
                op.put("key", key);
                op.put("value", value);
                operations.add(op);
            }
        });
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("file", r.path());
            doc.put("length", r.length());
            doc.put("records", r.records());
            doc.put("operations", r.operations());
            if (ops) {
                doc.put("ops", operations);
            }
            doc.put("tornTailOffset", r.tornTailOffset());
            doc.put("corruption", r.corruption() == null ? null : r.corruption().getMessage());
            output.printJson(out, doc);
            return r.clean() ? 0 : 1;
        }
        out.printf("%s: %d bytes, %d records, %d operations%n", r.path(), r.length(), r.records().size(), r.operations());
        int next = 0;
        for (LogScan.Record rec : r.records()) {
            out.printf("@%d sequences %d..%d (%d ops, %d bytes)%n", rec.offset(), rec.firstSequence(),
                    rec.firstSequence() + rec.ops() - 1, rec.ops(), rec.bytes());
            while (next < operations.size() && (long) operations.get(next).get("sequence") < rec.firstSequence() + rec.ops()) {
                Map<String, Object> op = operations.get(next++);
                out.printf("  %s %d %s%s%n", op.get("kind"), op.get("sequence"), output.bytes((byte[]) op.get("key")),
                        op.get("value") == null ? "" : " = " + output.bytes((byte[]) op.get("value")));
            }
        }
        if (r.tornTailOffset() >= 0) {
            out.printf("torn tail at offset %d: a write a crash interrupted, never acknowledged as synced%n",
                    r.tornTailOffset());
        }
        if (r.corruption() != null) {
            out.printf("DAMAGED %s%n", r.corruption().getMessage());
        }
        out.flush();
        return r.clean() ? 0 : 1;
    }
}
