package io.bellows.engine.internal.db;

import io.bellows.engine.EventListener;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells the engine's {@link EventListener}s of its background work; a failing listener is logged, never felt. */
final class Events {
    private static final Logger LOG = LoggerFactory.getLogger(Events.class);

    private final List<EventListener> listeners;

    Events(List<EventListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    boolean any() {
        return !listeners.isEmpty();
    }

    void flushBegin() {
        each(EventListener::onFlushBegin);
    }

    void flushCompleted(List<FileMeta> outputs, long nanos) {
        if (any()) {
            List<EventListener.TableInfo> out = new ArrayList<>(outputs.size());
            for (FileMeta f : outputs) {
                out.add(info(0, f));
            }
            EventListener.FlushInfo info = new EventListener.FlushInfo(out, nanos);
            each(l -> l.onFlushCompleted(info));
        }
    }

    void compactionBegin(Compaction c) {
        if (any()) {
            EventListener.CompactionInfo info = compaction(c, null, 0);
            each(l -> l.onCompactionBegin(info));
        }
    }

    void compactionCompleted(Compaction c, VersionEdit edit, long nanos) {
        if (any()) {
            EventListener.CompactionInfo info = compaction(c, edit, nanos);
            each(l -> l.onCompactionCompleted(info));
        }
    }

    void stallBegin() {
        each(EventListener::onStallBegin);
    }

    void stallEnded(long nanos) {
        each(l -> l.onStallEnded(nanos));
    }

    void backgroundError(String job, Throwable error) {
        each(l -> l.onBackgroundError(job, error));
    }

    private static EventListener.CompactionInfo compaction(Compaction c, VersionEdit edit, long nanos) {
        List<EventListener.TableInfo> in = new ArrayList<>(c.inputs().size());
        for (Compaction.Input i : c.inputs()) {
            in.add(info(i.level(), i.file()));
        }
        List<EventListener.TableInfo> out = new ArrayList<>();
        if (edit != null) {
            for (VersionEdit.NewFile n : edit.newFiles()) {
                out.add(info(n.level(), n.meta()));
            }
        }
        return new EventListener.CompactionInfo(c.reason(), c.outputLevel(), in, out, nanos);
    }

    private static EventListener.TableInfo info(int level, FileMeta f) {
        return new EventListener.TableInfo(f.number, level, f.fileSize, f.entries);
    }

    private void each(Consumer<EventListener> call) {
        for (EventListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                LOG.warn("event listener {} failed", l, e);
            }
        }
    }
}
