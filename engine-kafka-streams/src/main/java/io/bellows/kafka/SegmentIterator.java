package io.bellows.kafka;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.ReadOptions;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Iterates segments one after another (in the order given), each through a cursor over the same
 * encoded-key bounds, keeping the entries {@code accept} passes and turning them into Kafka's entries.
 * One entry is read ahead so that {@link #peekNextKey()} and {@link #hasNext()} need not move the cursor.
 */
final class SegmentIterator<K> implements KeyValueIterator<K, byte[]> {
    private final Iterator<Engine> segments;
    private final ReadOptions bounds;
    private final boolean forward;
    private final Predicate<byte[]> accept;
    private final BiFunction<byte[], byte[], KeyValue<K, byte[]>> entry;
    private final Consumer<SegmentIterator<K>> onClose;
    private Cursor cursor;
    private KeyValue<K, byte[]> next;
    private volatile boolean open = true;

    SegmentIterator(List<Engine> segments, byte[] from, byte[] toExclusive, boolean forward, Predicate<byte[]> accept,
            BiFunction<byte[], byte[], KeyValue<K, byte[]>> entry, String storeName, Consumer<SegmentIterator<K>> onClose) {
        this.segments = segments.iterator();
        this.bounds = ReadOptions.defaults().from(from).to(toExclusive);
        this.forward = forward;
        this.accept = accept;
        this.entry = entry;
        this.onClose = onClose;
    }

    @Override
    public boolean hasNext() {
        if (!open) {
            // Kafka's segmented iterators end quietly once closed, also when their store closed them.
            return false;
        }
        while (next == null) {
            if (cursor == null || !cursor.isValid()) {
                if (!nextSegment()) {
                    return false;
                }
                continue;
            }
            byte[] key = cursor.key();
            if (accept.test(key)) {
                next = entry.apply(key, cursor.value());
            }
            if (forward) {
                cursor.next();
            } else {
                cursor.prev();
            }
        }
        return true;
    }

    private boolean nextSegment() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
        while (segments.hasNext()) {
            Engine e = segments.next();
            try {
                cursor = e.cursor(bounds);
            } catch (EngineClosedException expired) {
                // The segment expired and was dropped after this iterator listed it: it has nothing to give.
                continue;
            }
            if (forward) {
                cursor.seekToFirst();
            } else {
                cursor.seekToLast();
            }
            return true;
        }
        return false;
    }

    @Override
    public KeyValue<K, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<K, byte[]> out = next;
        next = null;
        return out;
    }

    @Override
    public K peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return next.key;
    }

    @Override
    public void close() {
        if (closeCursor()) {
            onClose.accept(this);
        }
    }

    /** Closes the cursor when the store closes under an open iterator. */
    boolean closeCursor() {
        if (!open) {
            return false;
        }
        open = false;
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
        return true;
    }
}
