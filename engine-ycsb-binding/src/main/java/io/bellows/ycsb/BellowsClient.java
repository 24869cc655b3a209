package io.bellows.ycsb;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for an embedded Bellows store: {@code -db io.bellows.ycsb.BellowsClient -p bellows.dir=DIR}.
 *
 * <p>YCSB creates one instance per client thread. All instances naming one directory share one engine,
 * opened by the first {@link #init()} and closed by the last {@link #cleanup()}. Properties are listed in
 * the README ("YCSB"); an unknown {@code bellows.*} key or a malformed value fails {@link #init()} with a
 * message naming the key and what it accepts. A record is stored as one value in the field-map encoding of
 * docs/formats/ycsb-record.md. {@code read}, {@code update} and {@code delete} of a missing key return
 * {@link Status#NOT_FOUND}; {@code update} merges the given fields into the stored record atomically. A
 * workload with scans ({@code scanproportion} above 0) on a store that cannot scan (LSM_TRIE) fails
 * {@link #init()} with a message saying so.
 */
public final class BellowsClient extends DB {
    /** YCSB CoreWorkload's share of scan operations. */
    static final String SCAN_PROPORTION = "scanproportion";

    private SharedEngines.Shared shared;

    @Override
    public void init() throws DBException {
        if (shared != null) {
            throw new DBException("init() called twice on one client");
        }
        SharedEngines.Shared s = SharedEngines.acquire(BellowsSettings.parse(getProperties()));
        try {
            refuseScansTheStoreCannotServe(s);
        } catch (DBException e) {
            SharedEngines.release(s);
            throw e;
        }
        shared = s;
    }

    /**
     * Fails a workload with scans on a store that refuses cursors (LSM_TRIE keeps no key order): every
     * scan would return NOT_IMPLEMENTED at once and YCSB would report those as fast operations.
     */
    private void refuseScansTheStoreCannotServe(SharedEngines.Shared s) throws DBException {
        String text = getProperties().getProperty(SCAN_PROPORTION, "0").trim();
        double scans;
        try {
            scans = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new DBException(SCAN_PROPORTION + " must be a number, not '" + text + "'", e);
        }
        if (scans <= 0) {
            return;
        }
        String refusal = s.store.scanRefusal();
        if (refusal != null) {
            throw new DBException("this workload scans (" + SCAN_PROPORTION + "=" + text + ") but the Bellows store in "
                    + s.settings.dir() + " cannot: its compaction scheme " + s.settings.options().compaction().name()
                    + " keeps no key order (" + refusal + "). Run scan workloads such as workloade on a scheme"
                    + " that keeps key order (bellows.compaction=LEVELED, for one), or set " + SCAN_PROPORTION + "=0");
        }
    }

    @Override
    public void cleanup() throws DBException {
        if (shared != null) {
            SharedEngines.Shared s = shared;
            shared = null;
            SharedEngines.release(s);
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        return store().read(table, key, fields, result);
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return store().scan(table, startkey, recordcount, fields, result);
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return store().update(table, key, values);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return store().insert(table, key, values);
    }

    @Override
    public Status delete(String table, String key) {
        return store().delete(table, key);
    }

    private RecordStore store() {
        if (shared == null) {
            throw new IllegalStateException("BellowsClient used outside init() .. cleanup()");
        }
        return shared.store;
    }
}
