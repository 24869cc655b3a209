package io.bellows.engine;

import java.nio.file.Path;

/**
 * A file's contents failed verification (checksum, magic, version or structure). Names the file and
 * the offset of the damaged region. The engine never returns data from a damaged region.
 */
public class CorruptionException extends RuntimeException {
    private final transient Path file;
    private final long offset;

    public CorruptionException(Path file, long offset, String message) {
        super(file + " at offset " + offset + ": " + message);
        this.file = file;
        this.offset = offset;
    }

    public CorruptionException(Path file, long offset, String message, Throwable cause) {
        super(file + " at offset " + offset + ": " + message, cause);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
