package io.bellows.ycsb;

/** A stored value is not a well-formed record (docs/formats/ycsb-record.md); the message says where. */
final class RecordFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RecordFormatException(String message) {
        super("malformed YCSB record: " + message);
    }
}
