package io.bellows.engine.version;

import java.util.List;

/**
 * The compaction scheme's persistent state as the version set sees it: opaque records replayed on
 * recovery and re-emitted whole when a new manifest is started.
 */
public interface SchemeState {
    /** Applies one record read from the manifest (or just logged). */
    void apply(byte[] record);

    /** Records that rebuild the current state from nothing. */
    List<byte[]> snapshot();
}
