package io.bellows.ycsb;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WriteOptions;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicBoolean;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * The five YCSB operations on one engine, shared by every client thread of that engine. Records are stored
 * as {@link RecordCodec} values under {@link StoreKeys} keys.
 *
 * <p>Thread safety: an update is a read-modify-write (the engine has no merge operator or compare-and-set),
 * so two threads updating different fields of one key could each read the old record and the second put
 * would drop the first one's fields. Every write of a key (insert, update, delete) therefore runs under
 * that key's stripe lock, making each one atomic with respect to the others; reads take no lock because a
 * put replaces a whole record atomically. Striping bounds the lock memory; two keys that share a stripe
 * only serialize their writes. One engine per directory per JVM (and the engine's directory lock across
 * processes) means no writer outside these locks exists.
 *
 * <p>Failures become statuses, never exceptions: YCSB's client thread would end the whole run on one. The
 * first failure of a store is printed with its stack trace so it is not lost; YCSB's report counts all.
 */
final class RecordStore {
    private static final int STRIPES = 1024;

    private final Engine engine;
    private final WriteOptions writeOptions;
    private final String schemeName;
    private final Object[] stripes = new Object[STRIPES];
    private final AtomicBoolean failureReported = new AtomicBoolean();
    private final AtomicBoolean scanRefusalReported = new AtomicBoolean();
    private final PrintStream log;

    RecordStore(Engine engine, WriteOptions writeOptions, String schemeName, PrintStream log) {
        this.engine = engine;
        this.writeOptions = writeOptions;
        this.schemeName = schemeName;
        this.log = log;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] record = engine.get(StoreKeys.of(table, key));
            if (record == null) {
                return Status.NOT_FOUND;
            }
            RecordCodec.decode(record, fields, result);
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("read", e);
        }
    }

    /**
     * Up to {@code count} records from {@code startKey} on, in key order, through one cursor bounded to the
     * table. A scheme without key order (LSM_TRIE) refuses the cursor; that is NOT_IMPLEMENTED, never a
     * partial or unordered answer.
     */
    Status scan(String table, String startKey, int count, Set<String> fields, Vector<HashMap<String, ByteIterator>> result) {
        ReadOptions bounds = ReadOptions.defaults().from(StoreKeys.of(table, startKey)).to(StoreKeys.tableEnd(table));
        int before = result.size();
        try (Cursor cursor = engine.cursor(bounds)) {
            int n = 0;
            for (cursor.seekToFirst(); cursor.isValid() && n < count; cursor.next(), n++) {
                HashMap<String, ByteIterator> values = new HashMap<>();
                RecordCodec.decode(cursor.value(), fields, values);
                result.add(values);
            }
            return Status.OK;
        } catch (UnsupportedOperationException e) {
            result.setSize(before);
            Status status = new Status("NOT_IMPLEMENTED", "scan needs key order, which the compaction scheme "
                    + schemeName + " does not keep (" + e.getMessage() + ")");
            if (scanRefusalReported.compareAndSet(false, true)) {
                log.println("bellows: " + status.getDescription() + "; every scan on this store returns NOT_IMPLEMENTED");
            }
            return status;
        } catch (RuntimeException e) {
            result.setSize(before);
            return failed("scan", e);
        }
    }

    /** Why this store refuses cursors (its scheme keeps no key order), or null if it can scan. */
    String scanRefusal() {
        try (Cursor probe = engine.cursor(ReadOptions.defaults())) {
            return null;
        } catch (UnsupportedOperationException e) {
            return e.getMessage() == null ? "cursors refused" : e.getMessage();
        }
    }

    /** Merges {@code values} into the stored record; NOT_FOUND if there is none. */
    Status update(String table, String key, Map<String, ByteIterator> values) {
        byte[] k = StoreKeys.of(table, key);
        try {
            synchronized (stripe(table, key)) {
                byte[] stored = engine.get(k);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                engine.put(k, RecordCodec.merge(stored, values), writeOptions);
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("update", e);
        }
    }

    /** Stores the record, replacing any stored under the key. */
    Status insert(String table, String key, Map<String, ByteIterator> values) {
        byte[] k = StoreKeys.of(table, key);
        try {
            byte[] record = RecordCodec.encode(values);
            synchronized (stripe(table, key)) {
                engine.put(k, record, writeOptions);
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("insert", e);
        }
    }

    /** Removes the record; NOT_FOUND if there is none. */
    Status delete(String table, String key) {
        byte[] k = StoreKeys.of(table, key);
        try {
            synchronized (stripe(table, key)) {
                if (engine.get(k) == null) {
                    return Status.NOT_FOUND;
                }
                engine.delete(k, writeOptions);
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("delete", e);
        }
    }

    private Object stripe(String table, String key) {
        int h = 31 * table.hashCode() + key.hashCode();
        return stripes[(h ^ (h >>> 16)) & (STRIPES - 1)];
    }

    private Status failed(String operation, RuntimeException e) {
        if (failureReported.compareAndSet(false, true)) {
            log.println("bellows: " + operation + " failed; later failures are only counted in YCSB's report");
            e.printStackTrace(log);
        }
        return new Status("ERROR", operation + " failed: " + e);
    }
}
