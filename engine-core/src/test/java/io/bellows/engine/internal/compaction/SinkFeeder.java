package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.Slice;
import java.io.IOException;
import java.util.Arrays;

/**
 * Hands entries to a {@link TableSink} either as views at an offset of arrays that the next entry
 * overwrites (so a sink that keeps a view past the call reads the wrong bytes), or as arrays of their own.
 * For the view-path tests of the schemes' sinks.
 */
public final class SinkFeeder {
    private final byte[] keyBlock = new byte[256];
    private final byte[] valueBlock;
    private final Slice key = new Slice();
    private final Slice value = new Slice();

    /** Values up to {@code maxValue} bytes, at offsets below 64. */
    public SinkFeeder(int maxValue) {
        valueBlock = new byte[maxValue + 64];
    }

    public void add(TableSink sink, byte[] k, long seq, int kind, byte[] v, boolean views, int off) throws IOException {
        if (!views) {
            sink.add(key.set(k).copy(), seq, kind, value.set(v).copy());
            return;
        }
        Arrays.fill(keyBlock, (byte) off);
        Arrays.fill(valueBlock, 0, off + v.length, (byte) off);
        System.arraycopy(k, 0, keyBlock, off, k.length);
        System.arraycopy(v, 0, valueBlock, off, v.length);
        sink.add(key.set(keyBlock, off, k.length), seq, kind, value.set(valueBlock, off, v.length));
    }
}
