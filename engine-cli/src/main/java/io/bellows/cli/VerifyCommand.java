package io.bellows.cli;

import io.bellows.engine.internal.inspect.StoreVerifier;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code bellows verify DIR}: exit 0 when every live file checks out, 1 naming each damaged file and offset. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check every checksum of every live table and WAL file and the directory against the"
                + " manifest (missing files, wrong sizes). Exit status 0 when clean, 1 when damaged.")
final class VerifyCommand extends StoreCommand {
    @Override
    public Integer call() throws Exception {
        StoreVerifier.Report r;
        try (StoreDir store = StoreDir.lock(dir)) {
            r = StoreVerifier.verify(store.fs, store.dir);
        }
        PrintWriter out = out();
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("clean", r.clean());
            doc.put("dir", r.dir());
            doc.put("scheme", r.scheme());
            doc.put("tables", r.tables());
            doc.put("logs", r.logs());
            doc.put("bytes", r.bytes());
            doc.put("seconds", r.nanos() / 1e9);
            doc.put("megabytesPerSecond", r.megabytesPerSecond());
            doc.put("problems", r.problems());
            doc.put("extra", r.extra());
            doc.put("notes", r.notes());
            output.printJson(out, doc);
            return r.clean() ? 0 : 1;
        }
        for (StoreVerifier.Problem p : r.problems()) {
            out.printf("DAMAGED %s at offset %d: %s%n", p.file(), p.offset(), p.message());
        }
        for (Path p : r.extra()) {
            out.printf("extra   %s (not in the manifest: the next open deletes it)%n", p);
        }
        for (String n : r.notes()) {
            out.printf("note    %s%n", n);
        }
        out.printf("%s: %d tables, %d WAL files, %d bytes read in %.3f s (%.1f MB/s)%n",
                r.clean() ? "clean" : r.problems().size() + " problem(s)", r.tables(), r.logs(), r.bytes(),
                r.nanos() / 1e9, r.megabytesPerSecond());
        out.flush();
        return r.clean() ? 0 : 1;
    }
}
