package io.bellows.engine.internal.compaction.triad;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** TRIAD-LOG's running figures: CL-tables written, their entries, and how many point into a log. */
final class ClTableStats {
    private final LongAdder tables = new LongAdder();
    private final LongAdder entries = new LongAdder();
    private final LongAdder pointers = new LongAdder();

    void written(long tableEntries, long tablePointers) {
        tables.increment();
        entries.add(tableEntries);
        pointers.add(tablePointers);
    }

    Map<String, Double> figures() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("log.tables", tables.doubleValue());
        m.put("log.entries", entries.doubleValue());
        m.put("log.pointers", pointers.doubleValue());
        m.put("log.copied", entries.doubleValue() - pointers.doubleValue());
        return m;
    }
}
