package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TableFinisherTest {
    /** The calling thread's name without a pool's "-N" suffix. */
    private static String thread() {
        return Thread.currentThread().getName().replaceFirst("-\\d+$", "");
    }

    /** Records each call with the thread it ran on; a sync can be held until released, or fail. */
    private static final class Recording implements WritableFile {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch release = new CountDownLatch(1);
        IOException syncFailure;
        RuntimeException syncBug;
        long size;

        @Override
        public void append(byte[] b, int off, int len) {
            calls.add("append@" + thread());
            size += len;
        }

        @Override
        public void flush() {
            calls.add("flush@" + thread());
        }

        @Override
        public void sync() throws IOException {
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            calls.add("sync@" + thread());
            if (syncFailure != null) {
                throw syncFailure;
            }
            if (syncBug != null) {
                throw syncBug;
            }
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {
            calls.add("close@" + thread());
        }
    }

    @Test
    void syncAndCloseRunInOrderOnTheFinishersThreadAndAwaitWaitsForThem() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            Recording a = new Recording();
            Recording b = new Recording();
            WritableFile fa = batch.track(a);
            WritableFile fb = batch.track(b);
            fa.append(new byte[10]);
            fa.sync();
            fa.close();
            // The caller goes on while a's sync is held.
            fb.append(new byte[3]);
            fb.flush();
            fb.sync();
            fb.close();
            assertEquals(10, fa.size());
            String me = thread();
            assertEquals(List.of("append@" + me), a.calls, "a's sync has not run yet");
            assertThrows(IOException.class, () -> fa.append(new byte[1]), "nothing is appended after the handover");
            a.release.countDown();
            b.release.countDown();
            batch.await();
            assertEquals(List.of("append@" + me, "sync@bellows-table-sync", "close@bellows-table-sync"), a.calls);
            assertEquals(List.of("append@" + me, "flush@" + me, "sync@bellows-table-sync", "close@bellows-table-sync"),
                    b.calls);
        }
    }

    @Test
    void aFailedSyncIsThrownByAwaitAsItWasAndTheFileIsStillClosed() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            Recording ok = new Recording();
            Recording full = new Recording();
            full.syncFailure = new FileSystemException("/db/000009.sst", null, "No space left on device");
            for (Recording r : List.of(ok, full)) {
                r.release.countDown();
                handOver(batch, r);
            }
            IOException thrown = assertThrows(IOException.class, batch::await);
            assertSame(full.syncFailure, thrown, "the file's own exception, so a full disk reads as one");
            assertTrue(full.calls.contains("close@bellows-table-sync"), "closed after the failed sync");
            batch.awaitQuietly();
        }
    }

    /**
     * A failed file that {@code track} waited for, and so no longer counts against the bound, is still
     * the batch's failure: a full disk must not be lost because the sink went on to its next table.
     */
    @Test
    void aFailureOfAFileTrackWaitedForIsStillThrownByAwait() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            Recording full = new Recording();
            full.syncFailure = new FileSystemException("/db/000009.sst", null, "No space left on device");
            List<Recording> held = new ArrayList<>(List.of(full));
            handOver(batch, full);
            for (int i = 1; i < TableFinisher.MAX_IN_FLIGHT; i++) {
                Recording r = new Recording();
                held.add(r);
                handOver(batch, r);
            }
            Thread releaser = releaseLater(held);
            Recording next = new Recording();
            next.release.countDown();
            handOver(batch, next);
            assertTrue(full.calls.contains("close@bellows-table-sync"), "track waited for the failed file");
            releaser.join();
            IOException thrown = assertThrows(IOException.class, batch::await);
            assertSame(full.syncFailure, thrown, "the failed file's own exception");
        }
    }

    /** A runtime failure of one file is thrown too, and only once every other file has finished. */
    @Test
    void aRuntimeFailureIsThrownAfterEveryFileFinished() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            Recording bug = new Recording();
            bug.syncBug = new IllegalStateException("bug");
            bug.release.countDown();
            Recording slow = new Recording();
            for (Recording r : List.of(bug, slow)) {
                handOver(batch, r);
            }
            Thread releaser = releaseLater(List.of(slow));
            assertSame(bug.syncBug, assertThrows(IllegalStateException.class, batch::await));
            assertTrue(slow.calls.contains("close@bellows-table-sync"), "the other file finished first");
            releaser.join();
            batch.awaitQuietly();
        }
    }

    /** A sink whose files the disk has not caught up with waits before it starts one more than the bound. */
    @Test
    void trackingWaitsForTheOldestFileBeyondTheBound() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            List<Recording> held = new ArrayList<>();
            for (int i = 0; i < TableFinisher.MAX_IN_FLIGHT; i++) {
                Recording r = new Recording();
                held.add(r);
                handOver(batch, r);
            }
            Thread releaser = releaseLater(held);
            batch.track(new Recording()).close();
            assertTrue(held.get(0).calls.contains("close@bellows-table-sync"), "the oldest file was finished first");
            releaser.join();
            batch.await();
        }
    }

    /**
     * Files still being written do not stand in for unfinished ones. A sink streams several tables at
     * once (a push's children), hands them over together, and starts the next: it must wait until fewer
     * than the bound are unfinished, whatever it tracked in between.
     */
    @Test
    void filesStillBeingWrittenDoNotLiftTheBound() throws Exception {
        try (TableFinisher finisher = new TableFinisher()) {
            TableFinisher.Batch batch = finisher.batch();
            List<Recording> held = new ArrayList<>();
            List<WritableFile> heldFiles = new ArrayList<>();
            List<WritableFile> streaming = new ArrayList<>();
            for (int i = 0; i < TableFinisher.MAX_IN_FLIGHT; i++) {
                Recording r = new Recording();
                held.add(r);
                heldFiles.add(batch.track(r));
            }
            for (int i = 0; i < TableFinisher.MAX_IN_FLIGHT; i++) {
                Recording r = new Recording();
                r.release.countDown();
                streaming.add(batch.track(r));
            }
            for (WritableFile f : heldFiles) {
                f.sync();
                f.close();
            }
            Thread releaser = releaseLater(held);
            batch.track(new Recording()).close();
            assertTrue(held.get(0).calls.contains("close@bellows-table-sync"),
                    "the next file waited for the oldest of the files handed over");
            releaser.join();
            for (WritableFile f : streaming) {
                f.append(new byte[1], 0, 1);
                f.sync();
                f.close();
            }
            batch.await();
        }
    }

    @Test
    void afterCloseTheCallerFinishesItsOwnFiles() throws Exception {
        TableFinisher finisher = new TableFinisher();
        finisher.close();
        TableFinisher.Batch batch = finisher.batch();
        Recording r = new Recording();
        r.release.countDown();
        WritableFile f = batch.track(r);
        f.sync();
        f.close();
        batch.await();
        String me = thread();
        assertEquals(List.of("sync@" + me, "close@" + me), r.calls);
    }

    /** Tracks {@code r} in {@code batch} and hands its sync and close over, as a table builder does. */
    private static void handOver(TableFinisher.Batch batch, Recording r) throws IOException {
        WritableFile f = batch.track(r);
        f.sync();
        f.close();
    }

    /** A started thread that lets the syncs of {@code files} go after 100 ms, while the test waits. */
    private static Thread releaseLater(List<Recording> files) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            files.forEach(r -> r.release.countDown());
        });
        t.start();
        return t;
    }
}
