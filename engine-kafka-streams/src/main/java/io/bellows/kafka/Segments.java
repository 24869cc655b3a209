package io.bellows.kafka;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * The time segments of a window or session store: one engine per {@code segmentInterval} of time, in
 * {@code <store dir>/<segment id>}. A segment whose whole interval is older than the retention period
 * behind the observed stream time is closed and its directory deleted, so expired data gives its space
 * back at once instead of waiting for compaction (Kafka's RocksDB stores drop whole segments the same way).
 */
final class Segments {
    private final String storeName;
    private final Path dir;
    private final long retention;
    private final long interval;
    private final EngineOptions options;
    private final Map<String, Object> appConfigs;
    private final NavigableMap<Long, StoreEngines.Opened> open = new ConcurrentSkipListMap<>();

    Segments(String storeName, Path dir, long retention, long interval, EngineOptions options,
            Map<String, Object> appConfigs) {
        this.storeName = storeName;
        this.dir = dir;
        this.retention = retention;
        this.interval = interval;
        this.options = options;
        this.appConfigs = appConfigs;
    }

    long segmentId(long time) {
        return Math.floorDiv(time, interval);
    }

    /** Opens the segments left in the directory by an earlier run. */
    void openExisting() {
        File[] children = dir.toFile().listFiles();
        if (children == null) {
            return;
        }
        for (File child : children) {
            long id;
            try {
                id = Long.parseLong(child.getName());
            } catch (NumberFormatException e) {
                continue;
            }
            open.put(id, StoreEngines.open(storeName + "." + id, child.toPath(), options, appConfigs));
        }
    }

    /**
     * The engine of the segment holding {@code time}, opened if need be, or null if that segment has
     * expired at {@code streamTime}; drops the segments expired at {@code streamTime}.
     */
    Engine getOrCreateIfLive(long time, long streamTime) {
        return segmentIfLive(segmentId(time), streamTime);
    }

    /**
     * Writes restored batches, keyed by segment id, once the whole restore batch has moved the stream time
     * on, so that a segment expired meanwhile is skipped rather than written and then dropped.
     */
    void writeRestored(Map<Long, WriteBatch> bySegment, long streamTime) {
        for (Map.Entry<Long, WriteBatch> e : bySegment.entrySet()) {
            Engine seg = segmentIfLive(e.getKey(), streamTime);
            if (seg != null) {
                seg.write(e.getValue(), WriteOptions.noWal());
            }
        }
    }

    private Engine segmentIfLive(long id, long streamTime) {
        long minLive = segmentId(streamTime - retention);
        dropBefore(minLive);
        if (id < minLive) {
            return null;
        }
        StoreEngines.Opened seg = open.get(id);
        if (seg == null) {
            seg = StoreEngines.open(storeName + "." + id, dir.resolve(Long.toString(id)), options, appConfigs);
            open.put(id, seg);
        }
        return seg.engine();
    }

    /** The engine of the segment holding {@code time}, or null if it is not open. */
    Engine get(long time) {
        StoreEngines.Opened seg = open.get(segmentId(time));
        return seg == null ? null : seg.engine();
    }

    /** The open segments that may hold times in [from, to], oldest first or newest first. */
    List<Engine> segments(long from, long to, boolean forward) {
        List<Engine> out = new ArrayList<>();
        if (from > to) {
            return out;
        }
        NavigableMap<Long, StoreEngines.Opened> range = open.subMap(segmentId(from), true, segmentId(to), true);
        for (StoreEngines.Opened seg : (forward ? range : range.descendingMap()).values()) {
            out.add(seg.engine());
        }
        return out;
    }

    /** Closes and deletes every segment whose id is below {@code minLive}. */
    private void dropBefore(long minLive) {
        while (!open.isEmpty() && open.firstKey() < minLive) {
            Map.Entry<Long, StoreEngines.Opened> first = open.pollFirstEntry();
            first.getValue().close(storeName + "." + first.getKey());
            try {
                Utils.delete(dir.resolve(Long.toString(first.getKey())).toFile());
            } catch (IOException e) {
                throw new ProcessorStateException("Error deleting expired segment " + first.getKey() + " of " + storeName, e);
            }
        }
    }

    void flush() {
        for (StoreEngines.Opened seg : open.values()) {
            seg.engine().flush();
        }
    }

    int openCount() {
        return open.size();
    }

    void close() {
        RuntimeException failure = null;
        for (Map.Entry<Long, StoreEngines.Opened> e : open.entrySet()) {
            try {
                e.getValue().close(storeName + "." + e.getKey());
            } catch (RuntimeException ex) {
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        open.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
