package io.bellows.engine;

import io.bellows.engine.internal.db.EngineImpl;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * An open Bellows store: an ordered map of byte-string keys to byte-string values persisted in a
 * directory. Safe for use by any number of threads. Keys are 0 to {@link #MAX_KEY_LENGTH} bytes, ordered unsigned
 * lexicographically; values are 0 to {@link EngineOptions#maxValueLength()} bytes. Calls after
 * {@link #close()} throw {@link EngineClosedException}; damaged files raise {@link CorruptionException};
 * I/O failures raise {@link EngineIOException}.
 */
public interface Engine extends AutoCloseable {
    /** The longest key, in bytes: key lengths are stored as unsigned 16-bit integers. */
    int MAX_KEY_LENGTH = 65535;

    /**
     * Opens (creating if missing and allowed) the store in {@code dir}. Fails if another engine, in this
     * process or another, has it open; if it was written by another compaction scheme or another
     * format version; or if a file is damaged.
     */
    static Engine open(Path dir, EngineOptions options) {
        return EngineImpl.open(dir, options);
    }

    /** Sets {@code key} to {@code value} with the default {@link WriteOptions} (ASYNC). */
    default void put(byte[] key, byte[] value) {
        put(key, value, WriteOptions.defaults());
    }

    /** Sets {@code key} to {@code value}, as durable as {@code options} says. */
    void put(byte[] key, byte[] value, WriteOptions options);

    /** Removes {@code key} with the default {@link WriteOptions}; not an error if it is absent. */
    default void delete(byte[] key) {
        delete(key, WriteOptions.defaults());
    }

    /** Removes {@code key}; not an error if it is absent. */
    void delete(byte[] key, WriteOptions options);

    /** Applies {@code batch} atomically with the default {@link WriteOptions}. */
    default void write(WriteBatch batch) {
        write(batch, WriteOptions.defaults());
    }

    /** Applies every operation of {@code batch} atomically and in order. */
    void write(WriteBatch batch, WriteOptions options);

    /** The value of {@code key}, or null if absent. */
    default byte[] get(byte[] key) {
        return get(key, ReadOptions.defaults());
    }

    /** The value of {@code key} at the snapshot of {@code options} (the latest write without one), or null. */
    byte[] get(byte[] key, ReadOptions options);

    /**
     * Copies the value of {@code key} into {@code dst} starting at {@code off} and returns the value's
     * length, or -1 if absent. If the value is longer than the room left in {@code dst}, copies what fits
     * and still returns the full length, so the caller can retry with a larger buffer.
     */
    int get(byte[] key, byte[] dst, int off, ReadOptions options);

    /**
     * Copies the value of {@code key} into {@code dst}, heap or direct, from its position, and returns the
     * value's length, or -1 if absent (then {@code dst} is left as it was). As RocksDB's Java {@code get}
     * into a {@code ByteBuffer}: the position stays, the limit is set after the bytes copied, and a value
     * longer than {@code dst.remaining()} is copied as far as it fits while its full length is returned.
     * This default reads the value into a new array first; the engine's own implementation copies
     * straight from where the value lies and allocates nothing.
     */
    default int get(byte[] key, ByteBuffer dst, ReadOptions options) {
        byte[] v = get(key, options);
        if (v == null) {
            return -1;
        }
        int n = Math.min(v.length, dst.remaining());
        dst.put(dst.position(), v, 0, n);
        dst.limit(dst.position() + n);
        return v.length;
    }

    /** The values of {@code keys} (null where absent), in the order of {@code keys}, as of one read view. */
    default List<byte[]> multiGet(List<byte[]> keys) {
        return multiGet(keys, ReadOptions.defaults());
    }

    /**
     * The values of {@code keys} (null where absent), in the order of {@code keys}, all read at one
     * sequence (the options' snapshot, or the latest write when the call starts), as if no write ran
     * meanwhile. Cheaper than a loop of gets: one view is taken, the keys are looked up in key order and
     * each table block is read at most once for the whole call. Duplicate keys are allowed.
     */
    List<byte[]> multiGet(List<byte[]> keys, ReadOptions options);

    /** A consistent view of the store as of now, for reads until it is closed. */
    Snapshot snapshot();

    /** A cursor at the snapshot and within the bounds of {@code options}. */
    Cursor cursor(ReadOptions options);

    /**
     * Makes an openable, consistent copy of this store in {@code target}, which must not exist, while
     * writes go on (RocksDB's checkpoint): immutable table files are hard-linked where the file system
     * allows and copied otherwise, the manifest is written afresh, and the WAL files are copied as they
     * are. Opening the copy gives the state after a prefix of the writes that includes every write
     * acknowledged before this call (writes made without a WAL are flushed first). This is how a store
     * is backed up or a replica seeded.
     *
     * @throws IllegalArgumentException if {@code target} exists
     */
    void checkpoint(Path target);

    /** Writes the MemStore to tables and waits for it; afterwards no WAL is needed to recover. */
    void flush();

    /**
     * Flushes, then compacts every table overlapping {@code [from, to]} (null for unbounded) down to the
     * last level that holds data, dropping overwritten versions and tombstones no snapshot needs.
     * Returns when done.
     */
    void compactRange(byte[] from, byte[] to);

    /**
     * Starts recording every call that returns normally (gets, multiGets, puts, deletes, write batches,
     * cursor moves; with its start time and thread) to {@code file}, created or truncated, outside the
     * store directory; bellows-bench replays it against any configuration (docs/benchmarks.md, format
     * docs/formats/trace.md). Reads at a snapshot are recorded as reads of the latest state.
     *
     * @throws IllegalStateException if a trace is already being recorded
     * @throws EngineIOException if the file cannot be created
     */
    void startTrace(Path file, TraceOptions options);

    /** Stops recording and closes the trace file (also done by {@link #close()}); nothing if none is recorded. */
    void endTrace();

    /** Counters and shape of the store: amplification, bytes by cause, levels, stalls, recovery. */
    EngineStats stats();

    /** A micrometer binder exporting this engine's stats, tagged with the given name. */
    io.micrometer.core.instrument.binder.MeterBinder metrics(String name);

    /**
     * Waits for running background work, flushes nothing (the WAL recovers the MemStore, except
     * {@link Durability#NONE} writes, which close flushes first), and releases the directory.
     * Idempotent.
     */
    @Override
    void close();
}
