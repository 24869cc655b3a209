package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leak extension sees what netty reports: one buffer leaked on purpose must be caught. */
class LeakReportsTest {
    @Test
    void recordsALeakedBuffer() throws Exception {
        assertTrue(LeakReports.watching(LeakReportsTest.class), "LeakReports is registered by autodetection");
        assertTrue(LeakReports.installed(), "LeakReports' detector is the one ByteBufs are tracked with");
        LeakReports.collect();
        assertTrue(LeakReports.reports().isEmpty(), "no leak before this test: " + LeakReports.reports());
        List<String> reports = List.of();
        LeakReports.quiet(true);
        try {
            leakOne();
            for (int i = 0; i < 20 && reports.isEmpty(); i++) {
                LeakReports.collect();
                reports = LeakReports.reports();
            }
            assertTrue(reports.size() == 1 && reports.get(0).contains("ByteBuf"),
                    "the leaked buffer is reported once: " + reports);
            assertTrue(reports.get(0).contains("leakOne"), "the report shows where it was allocated: " + reports);
        } finally {
            LeakReports.quiet(false);
            LeakReports.forget(r -> r.contains("leakOne"));
        }
    }

    /** Allocates a tracked direct buffer and drops it unreleased; a frame of its own names it in the report. */
    private static void leakOne() {
        ByteBuf b = new UnpooledByteBufAllocator(true).directBuffer(64);
        b.writeLong(42);
    }
}
