package io.bellows.engine.internal.faults;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the fault runs of one scheme did and found, for the report and the verdict. */
final class FaultTally {
    private static final int SHOWN = 12;
    private static final int LOG_CHARS = 3000;

    private final CompactionStyle style;
    private final long start = System.nanoTime();
    private int runs;
    private int fired;
    private int drifted;
    private int reported;
    private int hangs;
    private long images;
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Integer> byKind = new TreeMap<>();
    private final Map<String, List<String>> bySignature = new TreeMap<>();
    private final Map<String, Integer> known = new TreeMap<>();

    FaultTally(CompactionStyle style) {
        this.style = style;
    }

    void add(FaultPoint p, FaultRun.Result r) {
        runs++;
        if (!r.injected().isEmpty()) {
            fired++;
            Call hit = r.injected().get(0);
            if (!hit.file().equals(p.expected().file())) {
                drifted++;
            }
        }
        if (r.apiErrors() > 0) {
            reported++;
        }
        images += r.images();
        if (r.findings().stream().anyMatch(f -> f.kind() == Finding.Kind.HANG)) {
            hangs++;
        }
        KnownBugs.Bug bug = KnownBugs.explaining(r.injected(), r.findings());
        if (bug != null) {
            known.merge(bug.name(), 1, Integer::sum);
            return;
        }
        for (Finding f : r.findings()) {
            byKind.merge(f.kind().toString(), 1, Integer::sum);
        }
        if (!r.findings().isEmpty()) {
            failures.add(describe(p, r));
            bySignature.computeIfAbsent(signature(p, r.findings().get(0)), k -> new ArrayList<>()).add(p.id());
        }
    }

    /** Runs that hung (each took minutes to give up: a few are enough to stop). */
    int hangs() {
        return hangs;
    }

    /** One line of counts and durations, then one line per way of failing with a few of its points. */
    String summary(FaultRun.Result counted, List<FaultPoint> all) {
        double seconds = (System.nanoTime() - start) / 1e9;
        StringBuilder b = new StringBuilder(String.format("FaultPointTest %s: %d calls, %d fault points %s; ran %d in %.1f s"
                + " (%.0f ms each, counting run %d ms): %d fired (%d on another file than counted), %d reported by the API,"
                + " %d crash images checked, %d failed %s, known bugs %s%nFaultPointTest %s calls by thread and operation: %s",
                style, counted.calls().size(), all.size(), kindCounts(all), runs, seconds,
                runs == 0 ? 0.0 : seconds * 1000 / runs, counted.nanos() / 1_000_000, fired, drifted, reported, images,
                failures.size(), byKind, known, style, FaultPoints.census(counted.calls())));
        for (Map.Entry<String, List<String>> e : bySignature.entrySet()) {
            b.append(String.format("%nFaultPointTest %s failure x%d: %s%n    e.g. %s", style, e.getValue().size(), e.getKey(),
                    String.join(" ", e.getValue().subList(0, Math.min(6, e.getValue().size())))));
        }
        return b.toString();
    }

    /** The failure message, or null if every run passed (known bugs aside). */
    String verdict() {
        if (failures.isEmpty()) {
            return null;
        }
        return failures.size() + " of " + runs + " fault points failed on " + style + " " + byKind + "; the first "
                + Math.min(SHOWN, failures.size()) + ":\n\n" + String.join("\n\n", failures.subList(0,
                Math.min(SHOWN, failures.size())));
    }

    private String describe(FaultPoint p, FaultRun.Result r) {
        StringBuilder b = new StringBuilder();
        b.append(style).append(' ').append(p).append(", injected ").append(r.injected())
                .append("\n  replay: -Dtest=FaultPointTest -Dbellows.faults.schemes=").append(style)
                .append(" -Dbellows.faults.point=").append(p.id());
        for (Finding f : r.findings().subList(0, Math.min(5, r.findings().size()))) {
            b.append("\n  ").append(f);
        }
        if (r.findings().size() > 5) {
            b.append("\n  ... ").append(r.findings().size() - 5).append(" more");
        }
        if (failures.isEmpty() && !r.log().isEmpty()) {
            b.append("\n  engine log:\n").append(r.log(), 0, Math.min(LOG_CHARS, r.log().length()));
        }
        return b.toString();
    }

    /** A failure with the numbers taken out, to group runs that failed the same way. */
    private static String signature(FaultPoint p, Finding first) {
        String detail = first.detail().split(": ")[0];
        return p.role() + " " + p.op() + " " + p.expected().file().replaceAll("\\d+", "#") + " -> " + first.kind() + ": "
                + detail.substring(0, Math.min(120, detail.length()));
    }

    private static String kindCounts(List<FaultPoint> points) {
        Map<String, Integer> out = new TreeMap<>();
        for (FaultPoint p : points) {
            out.merge(p.kind().toString(), 1, Integer::sum);
        }
        return out.toString();
    }
}
