package io.bellows.engine.internal.db;

import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes MemStore segments into tables through the scheme's flush outputs, dropping the versions no
 * snapshot can see. Used by the flush job and by recovery.
 */
final class FlushWriter {
    private final EngineContext ctx;

    FlushWriter(EngineContext ctx) {
        this.ctx = ctx;
    }

    /** Writes the segments' data (none if they hold nothing); the tables stay pending until installed. */
    List<FileMeta> write(List<Segment> segments) throws IOException {
        return write(segments, null, null);
    }

    /**
     * As {@link #write(List)}, leaving out the keys {@code plan} (null: none) carries over in memory; {@code logs}
     * (null: unknown) are the forced logs holding the segments' logged records, shown to the scheme's sink.
     */
    List<FileMeta> write(List<Segment> segments, FlushPlan plan, long[] logs) throws IOException {
        List<InternalIterator> its = new ArrayList<>();
        for (Segment s : segments) {
            its.add(s.iterator());
        }
        TableWriteContext wctx = ctx.writeContext(ctx.counters.flushBytesWritten, 0);
        TableSink out = logs == null ? ctx.scheme.flushOutputs(wctx) : ctx.scheme.flushOutputs(wctx, logs);
        try (MergingIterator it = new MergingIterator(its)) {
            VersionPruner pruner = new VersionPruner(ctx.snapshots.sequences(), null);
            byte[] planKey = null;
            boolean carried = false;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                // Views of the segments' memory, written at once: nothing is copied but the plan's keys.
                Slice key = it.keySlice();
                if (plan != null && (planKey == null || !key.contentEquals(planKey))) {
                    planKey = key.copy();
                    carried = plan.carries(planKey);
                }
                long seq = it.sequence();
                int kind = it.kind();
                if (!carried && pruner.keep(key, seq, kind)) {
                    out.add(key, seq, kind, it.valueSlice());
                }
            }
            return out.finish();
        } catch (IOException | RuntimeException e) {
            out.abandon();
            ctx.pendingOutputs.removeAll(out.created());
            throw e;
        }
    }
}
