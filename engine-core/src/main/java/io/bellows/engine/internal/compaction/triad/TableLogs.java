package io.bellows.engine.internal.compaction.triad;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * The WAL files each CL-table points into, by table number, kept in memory so the obsolete-file sweep
 * learns the live logs without I/O. Filled as CL-tables are finished and, at open, from the L0 tables;
 * an entry is dropped only when the table's file is deleted, since an older version a reader still holds
 * may use a table that the current version no longer has.
 */
final class TableLogs {
    private final Map<Long, long[]> byTable = new ConcurrentHashMap<>();

    void put(long table, long[] logs) {
        byTable.put(table, logs);
    }

    void remove(long table) {
        byTable.remove(table);
    }

    boolean contains(long table) {
        return byTable.containsKey(table);
    }

    /** Shows {@code out} the logs of every table of {@code tables} (repeats possible). */
    void live(LongPredicate tables, LongConsumer out) {
        for (Map.Entry<Long, long[]> e : byTable.entrySet()) {
            if (tables.test(e.getKey())) {
                for (long log : e.getValue()) {
                    out.accept(log);
                }
            }
        }
    }
}
