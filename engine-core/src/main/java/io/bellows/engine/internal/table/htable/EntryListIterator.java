package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import java.util.List;

/** An {@link InternalIterator} over entries already sorted in internal-key order. */
final class EntryListIterator implements InternalIterator {
    private final List<Entry> entries;
    private int index;

    EntryListIterator(List<Entry> entries) {
        this.entries = entries;
        this.index = entries.size();
    }

    @Override
    public boolean isValid() {
        return index < entries.size();
    }

    @Override
    public void seekToFirst() {
        index = 0;
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Entry e = entries.get(mid);
            if (InternalKeys.compare(e.key(), e.seq(), userKey, sequence) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        index = lo;
    }

    @Override
    public void next() {
        index++;
    }

    @Override
    public byte[] key() {
        return entries.get(index).key();
    }

    @Override
    public long sequence() {
        return entries.get(index).seq();
    }

    @Override
    public int kind() {
        return entries.get(index).kind();
    }

    @Override
    public byte[] value() {
        return entries.get(index).value();
    }

    @Override
    public void close() {
        index = entries.size();
    }
}
