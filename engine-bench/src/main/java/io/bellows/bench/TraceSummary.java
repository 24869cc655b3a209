package io.bellows.bench;

import io.bellows.engine.internal.trace.TraceReader;
import io.bellows.engine.internal.trace.TraceRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a trace holds, from one pass over it before the replay: records per recorded thread, whether
 * it opens cursors (which a store without key order refuses), the longest value it writes, its span
 * and where a torn tail was left out.
 *
 * @param recordsByThread records of each recorded thread, by thread number
 * @param firstByThread the time of each thread's first record
 * @param lastByThread the time of each thread's last record
 * @param tornAt file offset of the torn tail left out, or -1
 */
record TraceSummary(Path file, boolean values, Map<Integer, Long> recordsByThread, Map<Integer, Long> firstByThread,
        Map<Integer, Long> lastByThread, boolean cursors, int maxValueLength, long spanNanos, long tornAt) {

    static TraceSummary of(Path file) {
        Map<Integer, Long> byThread = new TreeMap<>();
        Map<Integer, Long> first = new TreeMap<>();
        Map<Integer, Long> last = new TreeMap<>();
        boolean cursors = false;
        int maxValue = 0;
        long span = 0;
        try (TraceReader r = TraceReader.open(file)) {
            for (TraceReader.Block b = r.next(); b != null; b = r.next()) {
                byThread.merge(b.thread(), (long) b.records().size(), Long::sum);
                first.putIfAbsent(b.thread(), b.records().get(0).time());
                last.put(b.thread(), b.records().get(b.records().size() - 1).time());
                for (TraceRecord rec : b.records()) {
                    span = Math.max(span, rec.time());
                    if (rec instanceof TraceRecord.CursorOpen) {
                        cursors = true;
                    } else if (rec instanceof TraceRecord.Put p) {
                        maxValue = Math.max(maxValue, p.valueLength());
                    } else if (rec instanceof TraceRecord.Write w) {
                        for (TraceRecord.BatchOp op : w.ops()) {
                            maxValue = Math.max(maxValue, op.valueLength());
                        }
                    }
                }
            }
            return new TraceSummary(file, r.values(), byThread, first, last, cursors, maxValue, span, r.tornAt());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file, e);
        }
    }

    long records() {
        return recordsByThread.values().stream().mapToLong(Long::longValue).sum();
    }

    String describe() {
        return String.format(Locale.ROOT, "trace %s: %d records on %d threads over %.3f s, %s%s", file, records(),
                recordsByThread.size(), spanNanos / 1e9, values ? "values recorded" : "value lengths only",
                tornAt < 0 ? "" : ", torn tail from byte " + tornAt + " left out");
    }
}
