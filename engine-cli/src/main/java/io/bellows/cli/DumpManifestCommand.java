package io.bellows.cli;

import io.bellows.engine.internal.inspect.ManifestView;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code bellows dump-manifest DIR}: every version edit of the current manifest, decoded. */
@Command(name = "dump-manifest", mixinStandardHelpOptions = true,
        description = "Print every version edit of the manifest CURRENT names, decoded.")
final class DumpManifestCommand extends StoreCommand {
    @Override
    public Integer call() throws Exception {
        ManifestView m;
        try (StoreDir store = StoreDir.lock(dir)) {
            m = ManifestView.read(store.fs, store.dir);
        }
        PrintWriter out = out();
        List<Map<String, Object>> edits = new ArrayList<>();
        for (ManifestView.Edit e : m.edits()) {
            edits.add(describe(e));
        }
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("manifest", m.manifest());
            doc.put("edits", edits);
            doc.put("tornTailOffset", m.tornTailOffset());
            output.printJson(out, doc);
            return 0;
        }
        out.printf("%s: %d edits%n", m.manifest(), edits.size());
        for (Map<String, Object> e : edits) {
            out.printf("@%s", e.remove("offset"));
            for (Map.Entry<String, Object> f : e.entrySet()) {
                if (f.getValue() instanceof List<?> l) {
                    for (Object item : l) {
                        out.printf("%n  %s %s", f.getKey(), item instanceof byte[] b ? output.bytes(b) : text(item));
                    }
                } else {
                    out.printf(" %s=%s", f.getKey(), f.getValue());
                }
            }
            out.println();
        }
        if (m.tornTailOffset() >= 0) {
            out.printf("torn tail at offset %d (a manifest write a crash interrupted; never took effect)%n",
                    m.tornTailOffset());
        }
        out.flush();
        return 0;
    }

    private Map<String, Object> describe(ManifestView.Edit e) {
        VersionEdit v = e.edit();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("offset", e.offset());
        if (v.scheme() != null) {
            m.put("scheme", v.scheme());
        }
        if (v.logNumber() >= 0) {
            m.put("logNumber", v.logNumber());
        }
        if (v.nextFileNumber() >= 0) {
            m.put("nextFileNumber", v.nextFileNumber());
        }
        if (v.lastSequence() >= 0) {
            m.put("lastSequence", v.lastSequence());
        }
        List<Map<String, Object>> added = new ArrayList<>();
        for (VersionEdit.NewFile n : v.newFiles()) {
            FileMeta f = n.meta();
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("level", n.level());
            t.put("placement", n.placement());
            t.put("number", f.number);
            t.put("fileSize", f.fileSize);
            t.put("entries", f.entries);
            t.put("smallestKey", f.smallestKey);
            t.put("smallestSeq", f.smallestSeq);
            t.put("largestKey", f.largestKey);
            t.put("largestSeq", f.largestSeq);
            t.put("maxSequence", f.maxSequence);
            added.add(t);
        }
        List<Map<String, Object>> deleted = new ArrayList<>();
        for (VersionEdit.DeletedFile d : v.deletedFiles()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("level", d.level());
            t.put("number", d.number());
            deleted.add(t);
        }
        if (!added.isEmpty()) {
            m.put("add", added);
        }
        if (!deleted.isEmpty()) {
            m.put("delete", deleted);
        }
        if (!v.schemeRecords().isEmpty()) {
            m.put("schemeRecord", new ArrayList<Object>(v.schemeRecords()));
        }
        return m;
    }

    /** A table or deletion line: its fields, keys shown as --hex says. */
    private String text(Object item) {
        if (!(item instanceof Map<?, ?> map)) {
            return String.valueOf(item);
        }
        StringBuilder b = new StringBuilder();
        map.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=')
                .append(v instanceof byte[] bytes ? output.bytes(bytes) : v));
        return b.toString();
    }
}
