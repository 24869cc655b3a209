package io.bellows.engine;

import java.nio.file.Path;

/**
 * A file's contents failed verification (checksum, magic, version or structure). Names the file and
 * the offset of the damaged region. The engine never returns data from a damaged region.
 */
public class CorruptionException extends RuntimeException {
    private final transient Path file;
    /** Where in the file the damage was found. */
    private final long offset;

    /** Damage found in {@code file} at {@code offset}, described by {@code message}. */
    public CorruptionException(Path file, long offset, String message) {
        super(file + " at offset " + offset + ": " + message);
        this.file = file;
        this.offset = offset;
    }

    /** Damage found in {@code file} at {@code offset}, detected through {@code cause}. */
    public CorruptionException(Path file, long offset, String message, Throwable cause) {
        super(file + " at offset " + offset + ": " + message, cause);
        this.file = file;
        this.offset = offset;
    }

    /** The damaged file (null after the exception was serialized). */
    public Path file() {
        return file;
    }

    /** The offset in {@link #file()} where the damaged region begins. */
    public long offset() {
        return offset;
    }
}
