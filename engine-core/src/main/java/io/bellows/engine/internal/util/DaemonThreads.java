package io.bellows.engine.internal.util;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's background threads are daemons: none holds data a caller has not waited for (a write is
 * acknowledged by its own thread, a table is durable once its sink waited), so none may keep a JVM
 * alive. The pools here serve work that waits on the disk: started on demand and stopped after 10 s
 * idle, so an engine (or a process) that is not writing or compacting keeps none of them.
 */
public final class DaemonThreads {
    private static final long IDLE_SECONDS = 10;

    private DaemonThreads() {}

    /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
    public static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Up to {@code threads} threads; tasks beyond them queue. */
    public static ThreadPoolExecutor fixed(String prefix, int threads) {
        ThreadPoolExecutor e = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), named(prefix));
        e.allowCoreThreadTimeOut(true);
        return e;
    }
}
