package io.bellows.engine;

/**
 * What a write survives once the call that made it has returned.
 *
 * <ul>
 *   <li>{@link #SYNC}: the write is in the WAL and the WAL has been forced to the device
 *       ({@code FileChannel.force(false)}, i.e. fdatasync). It survives a process crash and a machine
 *       crash or power loss. Concurrent SYNC writers share one write and one force (group commit).
 *   <li>{@link #ASYNC}: the write is in the WAL and has been handed to the operating system
 *       ({@code write(2)}), not forced. It survives a process crash; a machine crash may lose writes
 *       made within the last {@link EngineOptions#walSyncInterval()}, after which a background thread
 *       forces the WAL. Writes are never reordered: after recovery the store holds a prefix of the
 *       acknowledged writes.
 *   <li>{@link #NONE}: the write skips the WAL. It is durable only once a flush has written it to a
 *       table (explicit {@link Engine#flush()}, a full MemStore, or a clean {@link Engine#close()});
 *       any crash before that loses it.
 * </ul>
 */
public enum Durability {
    /** In the WAL and forced to the device: survives a machine crash. */
    SYNC,
    /** In the WAL, handed to the operating system: survives a process crash. */
    ASYNC,
    /** Not in the WAL: durable only once flushed to a table. */
    NONE
}
