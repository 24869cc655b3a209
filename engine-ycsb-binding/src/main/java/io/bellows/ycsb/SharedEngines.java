package io.bellows.ycsb;

import io.bellows.engine.Engine;
import io.bellows.engine.WriteOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import site.ycsb.DBException;

/**
 * The engines open in this JVM, one per directory, each shared by every YCSB client thread that names its
 * directory. YCSB makes one {@code DB} object per thread and calls {@code init}/{@code cleanup} on each;
 * a second {@code Engine.open} of a directory would fail on the directory lock, and separate engines
 * would not share a MemStore or cache anyway. The first {@link #acquire} opens, the last {@link #release}
 * closes.
 *
 * <p>Thread safety: all state is guarded by the class monitor. Opening and closing happen under it, so a
 * thread arriving while the last one closes waits and then opens afresh.
 */
final class SharedEngines {
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    private SharedEngines() {}

    /** One engine and its record store, with the number of clients using them. */
    static final class Shared {
        final BellowsSettings settings;
        final Engine engine;
        final RecordStore store;
        private int clients;

        private Shared(BellowsSettings settings, Engine engine) {
            this.settings = settings;
            this.engine = engine;
            this.store = new RecordStore(engine, WriteOptions.of(settings.durability()),
                    settings.options().compaction().name(), System.err);
        }
    }

    /**
     * The engine of {@code settings.dir()}, opened if no client holds it. A client arriving with other
     * {@code bellows.*} properties than the open engine's is refused rather than silently given options
     * it did not ask for.
     */
    static synchronized Shared acquire(BellowsSettings settings) throws DBException {
        Shared shared = OPEN.get(settings.dir());
        if (shared == null) {
            Engine engine;
            try {
                engine = Engine.open(settings.dir(), settings.options());
            } catch (RuntimeException e) {
                throw new DBException("cannot open the Bellows store in " + settings.dir() + ": " + e.getMessage(), e);
            }
            shared = new Shared(settings, engine);
            OPEN.put(settings.dir(), shared);
        } else if (!shared.settings.sameAs(settings)) {
            throw new DBException("the Bellows store in " + settings.dir() + " is already open in this JVM with "
                    + shared.settings + "; this client asks for " + settings);
        }
        shared.clients++;
        return shared;
    }

    /** Gives back one client's hold; the last one closes the engine. */
    static synchronized void release(Shared shared) throws DBException {
        if (OPEN.get(shared.settings.dir()) != shared || shared.clients == 0) {
            throw new IllegalStateException("released more often than acquired: " + shared.settings.dir());
        }
        if (--shared.clients > 0) {
            return;
        }
        OPEN.remove(shared.settings.dir());
        try {
            shared.engine.close();
        } catch (RuntimeException e) {
            throw new DBException("closing the Bellows store in " + shared.settings.dir() + " failed: " + e.getMessage(), e);
        }
    }

    /** Clients holding the engine of {@code dir}; 0 when it is not open. */
    static synchronized int clients(Path dir) {
        Shared shared = OPEN.get(dir.toAbsolutePath().normalize());
        return shared == null ? 0 : shared.clients;
    }
}
