package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LogRetentionTest {
    @Test
    void releasesExactlyTheLogsWhollyBelowTheOldestSequenceInMemory() {
        LogRetention r = new LogRetention();
        r.closed(5, 100, true);
        r.closed(7, 250, true);
        r.closed(8, 0, true); // rolled before any record
        r.closed(9, 400, true);
        assertEquals(5, r.firstNeeded(100, 12), "log 5 still holds sequence 100");
        assertEquals(7, r.firstNeeded(101, 12));
        assertEquals(7, r.firstNeeded(250, 12));
        assertEquals(9, r.firstNeeded(251, 12), "an empty log goes with the ones before it");
        assertEquals(12, r.firstNeeded(401, 12), "every closed log is below: only the current one is needed");
        assertEquals(12, r.firstNeeded(Long.MAX_VALUE, 12), "an empty MemStore needs no closed log");
        r.prune(8);
        assertEquals(8, r.firstNeeded(0, 12), "pruned logs are forgotten");
    }

    /**
     * A log whose roll could not force it may lose its ASYNC tail in a crash, and with it the versions
     * shadowing what older logs hold: it and every log before it stay.
     */
    @Test
    void aLogNotForcedAtItsRollIsKeptWithTheLogsBeforeIt() {
        LogRetention r = new LogRetention();
        r.closed(5, 100, true);
        r.closed(7, 250, false);
        r.closed(9, 400, true);
        assertEquals(5, r.firstNeeded(100, 12));
        assertEquals(7, r.firstNeeded(101, 12), "log 7 is below the MemStore's oldest sequence but not forced");
        assertEquals(7, r.firstNeeded(Long.MAX_VALUE, 12));
        r.prune(8);
        assertEquals(12, r.firstNeeded(401, 12), "a flush past it releases it");
    }
}
