package io.bellows.engine.internal.inspect;

import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableProperties;
import io.bellows.engine.internal.table.TableReader;
import io.bellows.engine.internal.table.htable.HTableReader;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a table file says about itself, by format, for dump tools (keys and metadata left as bytes). */
public final class TableDump {
    private TableDump() {}

    /** The table's properties in a stable order; byte arrays are keys or opaque metadata. */
    public static Map<String, Object> properties(OpenTable table) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (table instanceof TableReader r) {
            TableProperties p = r.properties();
            m.put("format", "sstable");
            m.put("fileSize", p.fileSize());
            m.put("entries", p.entries());
            m.put("deletions", p.deletions());
            m.put("smallestKey", p.smallestKey());
            m.put("smallestSeq", p.smallestSeq());
            m.put("largestKey", p.largestKey());
            m.put("largestSeq", p.largestSeq());
            m.put("rawKeyBytes", p.rawKeyBytes());
            m.put("rawValueBytes", p.rawValueBytes());
            m.put("dataBytes", r.dataBytes());
            m.put("dataBlocks", r.dataBlocks());
            m.put("filterBytes", r.filterBytes());
            m.put("schemeMetadataBytes", p.schemeMetadata() == null ? 0 : p.schemeMetadata().length);
        } else if (table instanceof HTableReader h) {
            m.put("format", "htable");
            m.put("entries", h.entries());
            m.put("dataBytes", h.dataBytes());
            m.put("buckets", h.buckets());
            m.put("clusterColumns", h.clusterColumns());
            m.put("window", h.window());
            m.put("overflowItems", h.overflowItems());
            m.put("hotMetadataBuckets", h.hotMetadataBuckets());
        } else {
            m.put("format", table.getClass().getSimpleName());
        }
        return m;
    }
}
