package io.bellows.engine.internal.db;

import io.bellows.engine.EngineClosedException;
import io.bellows.engine.Snapshot;
import java.lang.ref.Cleaner;

/** A registered snapshot sequence; closing (or leaking) it unregisters the sequence. */
final class SnapshotImpl implements Snapshot {
    private final long sequence;
    private final Object owner;
    private final Release release;
    private final Cleaner.Cleanable cleanable;

    private static final class Release extends Handles.Resource {
        private final SnapshotList list;
        private final long sequence;
        volatile boolean released;

        Release(SnapshotList list, long sequence) {
            super("Snapshot");
            this.list = list;
            this.sequence = sequence;
        }

        @Override
        void release() {
            released = true;
            list.remove(sequence);
        }
    }

    SnapshotImpl(long sequence, Object owner, SnapshotList list) {
        this.sequence = sequence;
        this.owner = owner;
        this.release = new Release(list, sequence);
        this.cleanable = Handles.register(this, release);
    }

    @Override
    public long sequence() {
        return sequence;
    }

    Object owner() {
        return owner;
    }

    /** The sequence to read at; throws if the snapshot is closed. */
    long checkedSequence() {
        if (release.released) {
            throw new EngineClosedException("snapshot at sequence " + sequence + " is closed");
        }
        return sequence;
    }

    @Override
    public void close() {
        release.markExplicit();
        cleanable.clean();
    }

    @Override
    public String toString() {
        return "Snapshot@" + sequence;
    }
}
