package io.bellows.engine.internal.db;

import io.bellows.engine.EngineClosedException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine lock, the condition that background work signals, and the engine's lifecycle flags. One
 * per engine, shared by the jobs that coordinate under the lock: the write queue, the stall controller,
 * the flush and compaction schedulers and WAL retention.
 */
final class EngineState {
    /** Guards the writer queue and the background bookkeeping (fields marked {@code @GuardedBy}). */
    final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a flush or compaction finishes, fails, or the engine closes. */
    final Condition backgroundChanged = lock.newCondition();
    private final Path dir;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set first thing in close: waits that could last forever (failing flushes) give up. */
    volatile boolean closeRequested;
    /** Set under the lock once close stops taking writes and starting background work. */
    volatile boolean closing;

    EngineState(Path dir) {
        this.dir = dir;
    }

    void checkOpen() {
        if (closed.get()) {
            throw new EngineClosedException("engine at " + dir + " is closed");
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Marks the engine closed; false if another close got there first. */
    boolean markClosed() {
        return closed.compareAndSet(false, true);
    }

    /** REQUIRES: lock held. Waits for a background change; fails if the engine closes meanwhile. */
    void awaitBackground(String what) {
        if (closing) {
            throw new EngineClosedException("engine closed during " + what);
        }
        backgroundChanged.awaitUninterruptibly();
    }
}
