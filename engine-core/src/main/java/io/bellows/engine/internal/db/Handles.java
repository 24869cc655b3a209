package io.bellows.engine.internal.db;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The safety net for handles (snapshots, cursors) that callers forget to close: each handle registers
 * its release action with a Cleaner; if the handle becomes unreachable while still open, the action
 * runs on the Cleaner thread, logs the leak and releases what the handle pinned. Netty's leak detector
 * does the same for buffers.
 */
final class Handles {
    private static final Logger LOG = LoggerFactory.getLogger(Handles.class);
    private static final Cleaner CLEANER = Cleaner.create();

    private Handles() {}

    /** The release action of one handle; runs exactly once, explicitly or as a leak. */
    abstract static class Resource implements Runnable {
        private final String what;
        private volatile boolean explicit;

        Resource(String what) {
            this.what = what;
        }

        void markExplicit() {
            explicit = true;
        }

        @Override
        public final void run() {
            if (!explicit) {
                LOG.warn("{} was not closed before it became unreachable; released it now. Close every {} "
                        + "(try-with-resources) so it does not pin versions and files longer than needed.", what, what);
                LEAKS.increment();
            }
            release();
        }

        abstract void release();
    }

    /** Handles released as leaks since the JVM started. */
    static final LongAdder LEAKS = new LongAdder();

    static Cleaner.Cleanable register(Object handle, Resource resource) {
        return CLEANER.register(handle, resource);
    }
}
