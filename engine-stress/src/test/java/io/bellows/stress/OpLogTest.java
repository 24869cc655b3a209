package io.bellows.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The op log's records and the values' encoding, which the crash check relies on. */
class OpLogTest {
    @TempDir
    Path dir;

    @Test
    void recordsReadBackInOrder() throws IOException {
        Path f = dir.resolve("t.log");
        try (OpLog log = new OpLog(f)) {
            log.attempt(OpLog.PUT, Durability.ASYNC, 0, 7, 0x1_0000_0001L, 99);
            log.ack(OpLog.PUT, Durability.ASYNC, 0, 7, 0x1_0000_0001L, 99);
            log.attempt(OpLog.BATCH, Durability.NONE, OpLog.FLAG_DECOYS, 3, 0x1_0000_0002L, 40);
        }
        List<OpLog.Entry> e = OpLog.read(f);
        assertEquals(3, e.size());
        assertEquals(new OpLog.Entry(OpLog.ATTEMPT, OpLog.PUT, Durability.ASYNC, 0, 7, 0x1_0000_0001L, 99), e.get(0));
        assertEquals(OpLog.ACK, e.get(1).type());
        assertEquals(new OpLog.Entry(OpLog.ATTEMPT, OpLog.BATCH, Durability.NONE, OpLog.FLAG_DECOYS, 3, 0x1_0000_0002L, 40),
                e.get(2));
    }

    @Test
    void interruptedLastRecordIsDroppedAndDamageBeforeItIsAnError() throws IOException {
        Path f = dir.resolve("t.log");
        try (OpLog log = new OpLog(f)) {
            for (int i = 0; i < 3; i++) {
                log.attempt(OpLog.DELETE, Durability.SYNC, 0, i, i + 1, 0);
            }
        }
        byte[] all = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(all, all.length - 5));
        assertEquals(2, OpLog.read(f).size());
        all[OpLog.RECORD + 9] ^= 1;
        Files.write(f, all, StandardOpenOption.TRUNCATE_EXISTING);
        assertThrows(IOException.class, () -> OpLog.read(f));
    }

    @Test
    void valuesAreRebuiltExactlyAndDamageIsSeen() {
        byte[] v = Values.make(Values.KIND_MEMBER, 5, KeySpace.memberId(9, 2), 0x7_0800_0003L, 300);
        Values.Parsed p = Values.parse(v);
        assertEquals(new Values.Parsed(Values.KIND_MEMBER, 5, KeySpace.memberId(9, 2), 0x7_0800_0003L, 300), p);
        assertTrue(Values.intact(v));
        assertArrayEquals(v, Values.make(Values.KIND_MEMBER, 5, KeySpace.memberId(9, 2), 0x7_0800_0003L, 300));
        v[250] ^= 0x40;
        assertFalse(Values.intact(v));
        assertNull(Values.parse(Arrays.copyOf(v, 299)));
        assertEquals(7, Counters.cycle(0x7_0800_0003L));
        assertEquals(1, Counters.run(0x7_0800_0003L));
        assertEquals(3, Counters.n(0x7_0800_0003L));
    }

    @Test
    void everyBatchThatIsNoGroupDeletePutsAMember() {
        for (long c = 0; c < 10_000; c++) {
            int members = 2 + (int) (c % 7);
            boolean put = false;
            for (int m = 0; m < members; m++) {
                put |= !Values.deletes(c, (int) c, m, members, false);
                assertTrue(Values.deletes(c, (int) c, m, members, true));
            }
            assertTrue(put, "batch " + c);
        }
    }
}
