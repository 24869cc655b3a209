package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;

/**
 * A flush's sink that lets FLSM choose guards from the keys it writes (PebblesDB selects guards from
 * inserted keys), each key seen before the table receives it and before the flush's tables are placed.
 */
final class GuardSelectingSink implements TableSink {
    private final FlsmScheme scheme;
    private final TableSink out;

    GuardSelectingSink(FlsmScheme scheme, TableSink out) {
        this.scheme = scheme;
        this.out = out;
    }

    private final Slice keyArg = new Slice();

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) throws IOException {
        scheme.observeFlushedKey(keyArg.set(key), kind);
        out.add(key, seq, kind, value);
    }

    @Override
    public void add(Slice key, long seq, int kind, Slice value) throws IOException {
        scheme.observeFlushedKey(key, kind);
        out.add(key, seq, kind, value);
    }

    @Override
    public List<FileMeta> finish() throws IOException {
        return out.finish();
    }

    @Override
    public List<Long> created() {
        return out.created();
    }

    @Override
    public void abandon() {
        out.abandon();
    }
}
