package io.bellows.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery check on hand-made histories: each case writes op-log records as a worker would and puts
 * into the store what a (possibly broken) recovery would have left, then expects the check to pass or
 * to name the broken guarantee.
 */
class VerifierTest {
    private static final long C = Counters.base(1, 0);

    @TempDir
    Path dir;

    private final KeySpace ks = new KeySpace(16, 4, 3);
    private Engine db;
    private final Map<Integer, OpLog> logs = new HashMap<>();

    @BeforeEach
    void open() throws IOException {
        db = Engine.open(dir.resolve("db"), EngineOptions.builder().compaction(CompactionStyle.LEVELED).build());
        Files.createDirectories(dir.resolve("run-0"));
    }

    @AfterEach
    void close() throws IOException {
        db.close();
        for (OpLog l : logs.values()) {
            l.close();
        }
    }

    private OpLog log(int thread) {
        return logs.computeIfAbsent(thread, t -> {
            try {
                return new OpLog(dir.resolve("run-0").resolve(StressChild.logName(t)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Logs a put of slot by thread 0 (acked or not) and, when {@code applied}, puts its value. */
    private void put(int slot, long counter, Durability d, boolean acked, boolean applied) throws IOException {
        log(0).attempt(OpLog.PUT, d, 0, slot, counter, 40);
        if (acked) {
            log(0).ack(OpLog.PUT, d, 0, slot, counter, 40);
        }
        if (applied) {
            db.put(KeySpace.single(slot), Values.make(Values.KIND_SINGLE, 0, slot, counter, 40));
        }
    }

    private void delete(int slot, long counter, Durability d, boolean acked, boolean applied) throws IOException {
        log(0).attempt(OpLog.DELETE, d, 0, slot, counter, 0);
        if (acked) {
            log(0).ack(OpLog.DELETE, d, 0, slot, counter, 0);
        }
        if (applied) {
            db.delete(KeySpace.single(slot));
        }
    }

    /** Logs a batch on group g and applies the members in {@code applied} (all of them for a correct recovery). */
    private void batch(int g, long counter, boolean acked, int... applied) throws IOException {
        log(0).attempt(OpLog.BATCH, Durability.SYNC, OpLog.FLAG_DECOYS, g, counter, 30);
        if (acked) {
            log(0).ack(OpLog.BATCH, Durability.SYNC, OpLog.FLAG_DECOYS, g, counter, 30);
        }
        WriteBatch b = new WriteBatch();
        addMembers(b, g, counter, applied);
        db.write(b);
    }

    private void addMembers(WriteBatch b, int g, long counter, int... members) {
        for (int m : members) {
            if (Values.deletes(counter, g, m, ks.members(g), false)) {
                b.delete(KeySpace.member(g, m));
            } else {
                b.put(KeySpace.member(g, m), Values.make(Values.KIND_MEMBER, 0, KeySpace.memberId(g, m), counter, 30));
            }
        }
    }

    /** Logs one batch over groups 0 to 2 with {@code acks} of its three ACK records, and applies it to {@code applied} groups. */
    private void batchOverGroups(long counter, int acks, int... applied) throws IOException {
        for (int g = 0; g < 3; g++) {
            log(0).attempt(OpLog.BATCH, Durability.ASYNC, OpLog.FLAG_MULTI, g, counter, 30);
        }
        for (int g = 0; g < acks; g++) {
            log(0).ack(OpLog.BATCH, Durability.ASYNC, OpLog.FLAG_MULTI, g, counter, 30);
        }
        WriteBatch b = new WriteBatch();
        for (int g : applied) {
            addMembers(b, g, counter, all(g));
        }
        if (b.count() > 0) {
            db.write(b);
        }
    }

    private int[] all(int g) {
        int[] m = new int[ks.members(g)];
        for (int i = 0; i < m.length; i++) {
            m[i] = i;
        }
        return m;
    }

    private Verifier.Result verify() throws Exception {
        return Verifier.verify(db, ks, true, new KeyStates(ks), History.read(ks, List.of(dir.resolve("run-0"))));
    }

    private StressFailure broken() {
        return assertThrows(StressFailure.class, this::verify);
    }

    @Test
    void exactRecoveryPasses() throws Exception {
        put(1, C + 1, Durability.SYNC, true, true);
        put(2, C + 2, Durability.ASYNC, true, true);
        delete(2, C + 3, Durability.ASYNC, true, true);
        batch(0, C + 4, true, all(0));
        Verifier.Result r = verify();
        assertEquals(2, r.present());
        assertEquals(C + 1, r.states().slotCounter[1]);
        assertEquals(C + 4, r.states().groupCounter[0]);
    }

    @Test
    void lostAsyncAcknowledgedPutIsReported() throws Exception {
        put(3, C + 1, Durability.ASYNC, true, false);
        StressFailure f = broken();
        assertEquals("lost acknowledged write", f.what());
        assertEquals("s:3", f.key());
        assertEquals("absent", f.found());
    }

    @Test
    void olderValueAfterAcknowledgedOverwriteIsReported() throws Exception {
        put(3, C + 1, Durability.SYNC, true, true);
        put(3, C + 2, Durability.SYNC, true, false);
        assertTrue(broken().what().startsWith("lost acknowledged write (an older value is back)"));
    }

    @Test
    void resurrectedValueAfterAcknowledgedDeleteIsReported() throws Exception {
        put(3, C + 1, Durability.SYNC, true, true);
        delete(3, C + 2, Durability.ASYNC, true, false);
        assertTrue(broken().what().startsWith("lost acknowledged write"));
    }

    @Test
    void unsyncedAndUnacknowledgedWritesMayBeLostOrKept() throws Exception {
        put(4, C + 1, Durability.NONE, true, false);
        put(5, C + 2, Durability.SYNC, true, true);
        put(5, C + 3, Durability.ASYNC, false, true);
        Verifier.Result r = verify();
        assertEquals(1, r.present());
        assertEquals(1, r.beyondAck());
    }

    @Test
    void valueNoWriteMadeIsReported() throws Exception {
        put(6, C + 1, Durability.SYNC, true, true);
        db.put(KeySpace.single(6), Values.make(Values.KIND_SINGLE, 0, 6, C + 9, 40));
        assertEquals("value never written", broken().what());
    }

    @Test
    void damagedValueIsReported() throws Exception {
        put(6, C + 1, Durability.SYNC, true, false);
        byte[] v = Values.make(Values.KIND_SINGLE, 0, 6, C + 1, 40);
        v[30] ^= 1;
        db.put(KeySpace.single(6), v);
        StressFailure f = broken();
        assertEquals("value never written", f.what());
        assertTrue(f.found().contains("DAMAGED"), f.found());
    }

    @Test
    void memberOfALaterBatchBesideAnEarlierBatchIsReported() throws Exception {
        int g = 1;
        int members = ks.members(g);
        batch(g, C + 1, true, all(g));
        long c = C + 2;
        while (countPuts(c, g, members) < 2) {
            c++;
        }
        batch(g, c, false, (int) (c % members));
        assertEquals("batch atomicity broken", broken().what());
    }

    @Test
    void batchMissingOneOfItsPutsIsReported() throws Exception {
        int g = 2;
        int members = ks.members(g);
        long c = C + 1;
        while (countPuts(c, g, members) < 2) {
            c++;
        }
        int[] allButOne = new int[members - 1];
        int k = 0;
        int dropped = -1;
        for (int m = 0; m < members; m++) {
            if (dropped < 0 && !Values.deletes(c, g, m, members, false)) {
                dropped = m;
            } else {
                allButOne[k++] = m;
            }
        }
        batch(g, c, true, allButOne);
        StressFailure f = broken();
        assertEquals("batch atomicity broken", f.what());
        assertTrue(f.found().contains("partly applied"), f.found());
    }

    private static int countPuts(long c, int g, int members) {
        int n = 0;
        for (int m = 0; m < members; m++) {
            n += Values.deletes(c, g, m, members, false) ? 0 : 1;
        }
        return n;
    }

    @Test
    void batchOverSeveralGroupsIsAllOrNothing() throws Exception {
        batchOverGroups(C + 1, 0);
        batchOverGroups(C + 2, 3, 0, 1, 2);
        assertEquals(3, verify().present());
    }

    @Test
    void batchOverSeveralGroupsAppliedToSomeIsReported() throws Exception {
        batchOverGroups(C + 1, 0, 0, 2);
        StressFailure f = broken();
        assertEquals("batch atomicity broken", f.what());
        assertTrue(f.key().contains("over 3 groups"), f.key());
        assertEquals("g:1 holds absent", f.found());
    }

    @Test
    void oneAckOfABatchOverSeveralGroupsMeansItReturned() throws Exception {
        batchOverGroups(C + 1, 1);
        StressFailure f = broken();
        assertEquals("lost acknowledged write", f.what());
    }

    @Test
    void visibleDecoyIsReported() throws Exception {
        batch(3, C + 1, true, all(3));
        db.put(KeySpace.member(3, 0), Values.make(Values.KIND_DECOY, 0, KeySpace.memberId(3, 0), C + 1, 30));
        StressFailure f = broken();
        assertEquals("batch atomicity broken", f.what());
        assertTrue(f.found().contains("decoy"), f.found());
    }

    @Test
    void keyOutsideTheKeySpaceIsReported() throws Exception {
        db.put(new byte[] {'z'}, new byte[] {1});
        assertEquals("cursor returned a key or value never written", broken().what());
    }

    @Test
    void stateOfThePreviousCheckMustSurvive() throws Exception {
        put(9, C + 1, Durability.SYNC, true, true);
        KeyStates first = verify().states();
        db.delete(KeySpace.single(9));
        Path empty = dir.resolve("run-next");
        Files.createDirectories(empty);
        StressFailure f = assertThrows(StressFailure.class,
                () -> Verifier.verify(db, ks, true, first, History.read(ks, List.of(empty))));
        assertEquals("s:9", f.key());
        assertTrue(f.expected().contains("the state the last check found"), f.expected());
    }
}
