package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Kind;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class FaultInjectingFileSystemTest {
    private static final Path DIR = Path.of("/db");
    private static final Path LOG = DIR.resolve("000001.log");
    private static final Path SST = DIR.resolve("000002.sst");
    private static final String EIO = "Input/output error (injected)";
    private static final String ENOSPC = "No space left on device (injected)";

    private final CrashableFileSystem mem = new CrashableFileSystem();
    private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);

    private static void assertFails(String message, Executable op) {
        assertEquals(message, assertThrows(IOException.class, op).getMessage());
    }

    @Test
    void everyOperationKindCanFail() throws IOException {
        WritableFile w = fs.createLog(LOG);
        w.append(new byte[8]);
        w.close();
        fs.createTable(SST).close();

        fs.inject(Fault.on(Op.CREATE));
        assertFails(EIO, () -> fs.createTable(SST));
        fs.inject(Fault.on(Op.RENAME).error(Kind.ENOSPC));
        assertFails(ENOSPC, () -> fs.rename(LOG, DIR.resolve("x")));
        fs.inject(Fault.on(Op.DELETE));
        assertFails(EIO, () -> fs.delete(LOG));
        fs.inject(Fault.on(Op.SYNC_DIR));
        assertFails(EIO, () -> fs.syncDirectory(DIR));
        fs.inject(Fault.on(Op.READ));
        assertFails(EIO, () -> fs.readAll(LOG));
        try (ReadableFile r = fs.openTable(LOG)) {
            fs.inject(Fault.on(Op.READ));
            assertFails(EIO, () -> r.read(0, 4));
            assertEquals(4, r.read(0, 4).length);
        }
        WritableFile log = fs.createLog(LOG);
        fs.inject(Fault.on(Op.APPEND).error(Kind.ENOSPC));
        assertFails(ENOSPC, () -> log.append(new byte[3]));
        fs.inject(Fault.on(Op.FLUSH));
        assertFails(EIO, log::flush);
        fs.inject(Fault.on(Op.SYNC));
        assertFails(EIO, log::sync);
        assertEquals(9, fs.injected());

        log.append(new byte[3]);
        log.flush();
        log.sync();
        log.close();
        fs.rename(LOG, DIR.resolve("x"));
        fs.syncDirectory(DIR);
        assertEquals(3, mem.readAll(DIR.resolve("x")).length);
        assertEquals(9, fs.injected());
    }

    @Test
    void directoryAndHandleOperationsCanFail() throws IOException {
        fs.createTable(SST).close();
        fs.inject(Fault.on(Op.OPEN));
        assertFails(EIO, () -> fs.openTable(SST));
        fs.inject(Fault.on(Op.LIST));
        assertFails(EIO, () -> fs.list(DIR));
        fs.inject(Fault.on(Op.MKDIR).error(Kind.ENOSPC));
        assertFails(ENOSPC, () -> fs.createDirectories(DIR.resolve("sub")));
        fs.inject(Fault.on(Op.LOCK));
        assertFails(EIO, () -> fs.lock(DIR.resolve("LOCK")));
        fs.inject(Fault.on(Op.SIZE));
        assertFails(EIO, () -> fs.size(SST));
        fs.inject(Fault.on(Op.EXISTS));
        assertThrows(EngineIOException.class, () -> fs.exists(SST), "an existence check that fails does not answer false");
        assertTrue(fs.exists(SST));
        WritableFile w = fs.createLog(LOG);
        w.append(new byte[5]);
        fs.inject(Fault.on(Op.CLOSE).error(Kind.ENOSPC));
        assertFails(ENOSPC, w::close);
        assertThrows(IOException.class, () -> w.append(new byte[1]), "a failed close still closes the file");
        assertEquals(5, mem.readAll(LOG).length);
        assertEquals(7, fs.injected());
        fs.openTable(SST).close();
        fs.lock(DIR.resolve("LOCK")).close();
        assertEquals(Set.of("000002.sst", "000001.log", "LOCK"), new HashSet<>(fs.list(DIR)));
    }

    @Test
    void traceRecordsCallsAndInjectedCallsWithTheirThread() throws Exception {
        fs.trace(true);
        WritableFile w = fs.createLog(LOG);
        fs.inject(Fault.on(Op.SYNC).threadMatching("other-.*"));
        w.sync();
        Thread t = new Thread(() -> assertFails(EIO, w::sync), "other-1");
        t.start();
        t.join();
        String me = Thread.currentThread().getName();
        assertEquals(List.of(new Call(Op.CREATE, "000001.log", me), new Call(Op.SYNC, "000001.log", me),
                new Call(Op.SYNC, "000001.log", "other-1")), fs.calls());
        assertEquals(List.of(new Call(Op.SYNC, "000001.log", "other-1")), fs.injectedCalls());
        List<Call> heard = new ArrayList<>();
        fs.onInject(c -> heard.add(c));
        fs.inject(Fault.on(Op.APPEND).error(Kind.TORN));
        assertFails(EIO, () -> w.append(new byte[] {1, 2, 3, 4}));
        assertEquals(List.of(new Call(Op.APPEND, "000001.log", me)), heard);
        fs.onDirectoryChange(c -> heard.add(c));
        fs.rename(LOG, DIR.resolve("x"));
        fs.inject(Fault.on(Op.DELETE));
        assertFails(EIO, () -> fs.delete(DIR.resolve("x")));
        fs.delete(DIR.resolve("x"));
        // The failed delete is heard as an injection, the one that went through as a change.
        assertEquals(List.of(new Call(Op.APPEND, "000001.log", me), new Call(Op.RENAME, "000001.log", me),
                new Call(Op.DELETE, "x", me), new Call(Op.DELETE, "x", me)), heard);
        fs.trace(false);
        w.sync();
        assertEquals(List.of(), fs.calls());
    }

    @Test
    void pausedCallsAreNeitherFailedNorCounted() throws IOException {
        fs.trace(true);
        fs.inject(Fault.on(Op.CREATE));
        fs.pause(true);
        fs.createLog(LOG).close();
        fs.pause(false);
        assertEquals(List.of(), fs.calls());
        assertFails(EIO, () -> fs.createLog(LOG));
        assertEquals(1, fs.calls().size());
    }

    @Test
    void openFilesAreThoseNotClosedYet() throws IOException {
        WritableFile log = fs.createLog(LOG);
        fs.createTable(SST).close();
        ReadableFile r = fs.openTable(SST);
        assertEquals(List.of("000001.log", "000002.sst"), fs.openFiles());
        fs.inject(Fault.on(Op.CLOSE));
        assertFails(EIO, log::close);
        r.close();
        assertEquals(List.of(), fs.openFiles(), "a close that fails still closes");
    }

    @Test
    void afterAndTimesCountMatchingOperations() throws IOException {
        WritableFile w = fs.createLog(LOG);
        fs.inject(Fault.on(Op.SYNC).after(2).times(3));
        w.sync();
        w.sync();
        for (int i = 0; i < 3; i++) {
            assertFails(EIO, w::sync);
        }
        w.sync();
        w.sync();
        assertEquals(3, fs.injected());
    }

    @Test
    void foreverUntilCleared() throws IOException {
        WritableFile w = fs.createLog(LOG);
        fs.inject(Fault.on(Op.APPEND, Op.FLUSH).times(Integer.MAX_VALUE));
        for (int i = 0; i < 100; i++) {
            assertFails(EIO, () -> w.append(new byte[1]));
            assertFails(EIO, w::flush);
        }
        fs.clear();
        w.append(new byte[1]);
        w.flush();
        assertEquals(200, fs.injected());
        assertEquals(1, w.size());
    }

    @Test
    void pathMatchingSelectsFilesByName() throws IOException {
        WritableFile log = fs.createLog(LOG);
        WritableFile sst = fs.createTable(SST);
        fs.inject(Fault.on(Op.SYNC).pathMatching(".*\\.sst").after(1));
        log.sync();
        log.sync();
        sst.sync();
        assertFails(EIO, sst::sync);
        log.sync();
        sst.sync();
        assertEquals(1, fs.injected());
    }

    @Test
    void tornAppendLeavesAPrefix() throws IOException {
        WritableFile w = fs.createLog(LOG);
        byte[] data = new byte[101];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        w.append(data, 0, 10);
        fs.inject(Fault.on(Op.APPEND).error(Kind.TORN));
        assertFails(EIO, () -> w.append(data, 10, 91));
        w.close();
        assertArrayEquals(Arrays.copyOf(data, 10 + 45), mem.readAll(LOG));
        assertEquals(1, fs.injected());
    }

    @Test
    void tornAppliesToAppendOnly() {
        assertThrows(IllegalArgumentException.class, () -> Fault.on(Op.APPEND, Op.SYNC).error(Kind.TORN));
        assertThrows(IllegalArgumentException.class, () -> Fault.on(Op.SYNC).after(-1));
        assertThrows(IllegalArgumentException.class, () -> Fault.on(Op.SYNC).times(0));
    }

    @Test
    void passesThroughWhenNoFaultMatches() throws IOException {
        fs.inject(Fault.on(Op.DELETE).pathMatching("nothing"));
        try (WritableFile w = fs.createTable(SST)) {
            w.append(new byte[] {1, 2, 3});
            w.sync();
        }
        fs.syncDirectory(DIR);
        try (ReadableFile r = fs.openTable(SST)) {
            assertArrayEquals(new byte[] {2, 3}, r.read(1, 2));
        }
        fs.delete(SST);
        assertEquals(0, fs.injected());
        assertEquals("memory", fs.tableIoMode());
    }
}
