package io.bellows.kafka;

import java.util.Arrays;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;

/** Kafka's inclusive key ranges expressed as the engine's [from, to) cursor bounds. */
final class KeyRanges {
    /** Kafka's own words for an inverted range (its stores log them and return nothing). */
    static final String INVALID_RANGE_WARNING = "Returning empty iterator for fetch with invalid key range: from > to. "
            + "This may be due to range arguments set in the wrong order, "
            + "or serdes that don't preserve ordering when lexicographically comparing the serialized bytes. "
            + "Note that the built-in numerical serdes do not follow this for negative numbers";

    private KeyRanges() {
    }

    /** The least key greater than every key {@code <= key}: the key followed by a zero byte. */
    static byte[] inclusiveToExclusive(byte[] key) {
        return key == null ? null : Arrays.copyOf(key, key.length + 1);
    }

    /**
     * The least key greater than every key starting with {@code prefix}, or null when there is none
     * (an empty prefix or one of 0xFF bytes only): the prefix cut after its last byte below 0xFF,
     * that byte incremented.
     */
    static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if ((prefix[i] & 0xFF) != 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /** Whether both bounds are given and {@code from > to}, which Kafka's stores answer with nothing. */
    static boolean inverted(Bytes from, Bytes to, Logger log) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            log.warn(INVALID_RANGE_WARNING);
            return true;
        }
        return false;
    }

    /** An iterator with no entries. */
    static <K, V> KeyValueIterator<K, V> empty() {
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return false;
            }

            @Override
            public KeyValue<K, V> next() {
                throw new NoSuchElementException();
            }

            @Override
            public K peekNextKey() {
                throw new NoSuchElementException();
            }

            @Override
            public void close() {
            }
        };
    }

    static byte[] bytes(Bytes b) {
        return b == null ? null : b.get();
    }
}
