package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import java.util.List;

/**
 * An {@link InternalIterator} over entries already sorted in internal-key order, both ways; a position
 * outside the list is kept as the list's size (invalid).
 */
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
        index = countBefore(userKey, sequence, false);
    }

    @Override
    public void seekToLast() {
        moveTo(entries.size() - 1);
    }

    @Override
    public void seekForPrev(byte[] userKey, long sequence) {
        moveTo(countBefore(userKey, sequence, true) - 1);
    }

    /** The number of entries before (userKey, sequence) in internal order, or at or before it if {@code orAt}. */
    private int countBefore(byte[] userKey, long sequence, boolean orAt) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Entry e = entries.get(mid);
            int c = InternalKeys.compare(e.key(), e.seq(), userKey, sequence);
            if (c < 0 || (orAt && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public void next() {
        index++;
    }

    @Override
    public void prev() {
        moveTo(index - 1);
    }

    private void moveTo(int i) {
        index = i < 0 ? entries.size() : i;
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
