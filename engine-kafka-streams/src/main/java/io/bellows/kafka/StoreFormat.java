package io.bellows.kafka;

import org.apache.kafka.streams.DslStoreFormat;

/**
 * How Kafka lays out a store's values: plain, with the record timestamp in front, or with headers and
 * timestamp in front. The store keeps values opaque; the format only decides which of Kafka's marker
 * interfaces it carries, so that Kafka's store builders hand it values in that format without adapters.
 */
enum StoreFormat {
    PLAIN,
    TIMESTAMPED,
    HEADERS;

    static StoreFormat of(DslStoreFormat format, StoreFormat absent) {
        if (format == null) {
            return absent;
        }
        switch (format) {
            case PLAIN:
                return PLAIN;
            case TIMESTAMPED:
                return TIMESTAMPED;
            case HEADERS:
                return HEADERS;
            default:
                throw new IllegalArgumentException("Unsupported DslStoreFormat: " + format);
        }
    }
}
