package io.bellows.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A failure's report keeps its history and gains what the checking open found, after it. */
class StressFailureTest {
    @Test
    void contextFollowsTheHistoryAndKeepsTheVerdict() {
        StressFailure f = new StressFailure("lost acknowledged write", "s:7", "v2", "v1", "    put v1\n    put v2\n");
        StressFailure g = f.withContext("  check open: recovery replayed 3 records\n");
        assertEquals("lost acknowledged write", g.what());
        assertEquals("s:7", g.key());
        assertEquals("v2", g.expected());
        assertEquals("v1", g.found());
        assertTrue(g.getMessage().endsWith("  history:\n    put v1\n    put v2\n  check open: recovery replayed 3 records\n"),
                g.getMessage());
        StressFailure none = new StressFailure("value never written", "s:8", "x", "y", "").withContext("  ctx\n");
        assertTrue(none.getMessage().endsWith("  found:    y\n  history:\n  ctx\n"), none.getMessage());
    }
}
