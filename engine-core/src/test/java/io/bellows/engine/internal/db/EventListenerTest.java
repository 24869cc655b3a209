package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EventListener;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The EventListener hooks: flushes, compactions with their tables, stalls in pairs, errors, and a listener that throws. */
class EventListenerTest {
    private static final Path DIR = Path.of("/db");

    /** Records every event; a listener is called from several threads. */
    private static final class Recorder implements EventListener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<FlushInfo> flushes = new CopyOnWriteArrayList<>();
        final List<CompactionInfo> compactions = new CopyOnWriteArrayList<>();
        final AtomicLong stalledNanos = new AtomicLong();

        @Override
        public void onFlushBegin() {
            events.add("flush-begin");
        }

        @Override
        public void onFlushCompleted(FlushInfo info) {
            events.add("flush-completed");
            flushes.add(info);
        }

        @Override
        public void onCompactionBegin(CompactionInfo info) {
            events.add("compaction-begin");
        }

        @Override
        public void onCompactionCompleted(CompactionInfo info) {
            events.add("compaction-completed");
            compactions.add(info);
        }

        @Override
        public void onStallBegin() {
            events.add("stall-begin");
        }

        @Override
        public void onStallEnded(long nanos) {
            events.add("stall-ended");
            stalledNanos.addAndGet(nanos);
        }

        @Override
        public void onBackgroundError(String job, Throwable error) {
            events.add("error:" + job);
        }

        long count(String event) {
            return events.stream().filter(event::equals).count();
        }
    }

    private static EngineOptions.Builder small() {
        return EngineOptions.builder().compaction(CompactionStyle.LEVELED).memstoreSize(64 << 10).targetFileSize(64 << 10)
                .maxBytesForLevelBase(128 << 10).l0Triggers(2, 3, 4).numLevels(4);
    }

    @Test
    void flushesCompactionsAndStallsAreToldWithTheirTables() {
        Recorder r = new Recorder();
        EventListener throwing = new EventListener() {
            @Override
            public void onFlushCompleted(FlushInfo info) {
                throw new IllegalStateException("a listener's failure must not reach the engine");
            }
        };
        EngineImpl db = EngineImpl.open(DIR, small().listeners(throwing, r).build(), new CrashableFileSystem());
        for (int i = 0; i < 20_000; i++) {
            db.put(String.format("key%08d", i % 5000).getBytes(), new byte[40]);
        }
        db.compactRange(null, null);
        assertArrayEquals(new byte[40], db.get("key00000042".getBytes()));
        long flushes = db.stats().background().flushes();
        long compactions = db.stats().background().compactions();
        long stalls = db.stats().background().stalls();
        db.close();

        assertEquals(flushes, r.count("flush-completed"));
        assertEquals(r.count("flush-begin"), r.count("flush-completed"));
        assertTrue(flushes > 2, "flushes " + flushes);
        assertTrue(r.flushes.stream().allMatch(f -> f.durationNanos() > 0 && f.outputs().stream()
                .allMatch(t -> t.level() == 0 && t.bytes() > 0 && t.entries() > 0)), r.flushes.toString());
        assertEquals(compactions, r.count("compaction-completed"));
        assertEquals(r.count("compaction-begin"), r.count("compaction-completed"));
        assertTrue(compactions > 0, "compactions " + compactions);
        for (EventListener.CompactionInfo c : r.compactions) {
            assertFalse(c.inputs().isEmpty() || c.reason().isEmpty(), c.toString());
            assertTrue(c.outputs().stream().allMatch(t -> t.level() == c.outputLevel()), c.toString());
        }
        // Every stall that began ended; the 1 ms delays of the slowdown trigger are counted but not told.
        assertEquals(r.count("stall-begin"), r.count("stall-ended"));
        assertTrue(r.count("stall-begin") <= stalls, r.events.toString());
    }

    @Test
    void aFailedFlushIsToldAsABackgroundError() throws Exception {
        Recorder r = new Recorder();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new CrashableFileSystem());
        EngineImpl db = EngineImpl.open(DIR, small().listeners(r).build(), fs);
        db.put("k".getBytes(), "v".getBytes());
        fs.inject(Fault.on(Op.CREATE).pathMatching(".*\\.sst").times(1));
        db.flush();
        db.close();
        assertEquals(1, r.count("error:flush"), r.events.toString());
        assertEquals(1, r.count("flush-completed"), r.events.toString());
    }
}
