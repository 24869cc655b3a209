package io.bellows.kafka;

import io.bellows.engine.Cursor;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A Kafka iterator over an engine cursor, ascending or descending, within the cursor's bounds. The
 * cursor reads the state of when it was made, so writes meanwhile neither show nor disturb it.
 */
final class CursorIterator implements KeyValueIterator<Bytes, byte[]> {
    private final Cursor cursor;
    private final boolean forward;
    private final String storeName;
    private final Consumer<CursorIterator> onClose;
    private volatile boolean open = true;

    /** Positions {@code cursor} at its first entry in the given direction. */
    CursorIterator(Cursor cursor, boolean forward, String storeName, Consumer<CursorIterator> onClose) {
        this.cursor = cursor;
        this.forward = forward;
        this.storeName = storeName;
        this.onClose = onClose;
        if (forward) {
            cursor.seekToFirst();
        } else {
            cursor.seekToLast();
        }
    }

    @Override
    public boolean hasNext() {
        checkOpen();
        return cursor.isValid();
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<Bytes, byte[]> entry = KeyValue.pair(Bytes.wrap(cursor.key()), cursor.value());
        if (forward) {
            cursor.next();
        } else {
            cursor.prev();
        }
        return entry;
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return Bytes.wrap(cursor.key());
    }

    @Override
    public void close() {
        if (open) {
            open = false;
            cursor.close();
            onClose.accept(this);
        }
    }

    /** Closes the cursor when the store closes under an open iterator (an interactive query, say). */
    void closeForStore() {
        if (open) {
            open = false;
            cursor.close();
        }
    }

    private void checkOpen() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + storeName + " is currently closed.");
        }
    }
}
