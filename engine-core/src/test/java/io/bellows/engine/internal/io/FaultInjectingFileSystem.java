package io.bellows.engine.internal.io;

import io.bellows.engine.EngineIOException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Wraps a file system and makes chosen operations fail, so tests can drive the engine's error paths
 * (a failed WAL sync, a full disk during compaction, a torn append) on purpose rather than hope
 * (Pebble's errorfs, Lucene's MockDirectoryWrapper).
 *
 * <p>Each injected {@link Fault} is a rule: operations of its kinds on files whose name matches are
 * counted; after the first {@code after} of them succeed, the next {@code times} fail. Rules are
 * consulted in injection order; the first that fires fails the operation and later rules do not see
 * it. Operations on the files this returns are checked too; only {@code tableIoMode} and closing a
 * {@link ReadableFile} pass through unchecked. A rule may also be limited to the threads whose name
 * matches, so a test can fail the n-th call of one engine thread (flush, compaction, scheduler) whatever
 * the others do in between.
 *
 * <p>With {@link #trace} on, every checked call is recorded as a {@link Call} (operation, file name,
 * thread), and every failed one is kept in {@link #injectedCalls()}: tests can count the calls a
 * workload makes, then fail each one in turn. {@link #openFiles()} lists the files not closed yet
 * (leaked handles).
 *
 * <p>Thread safety: safe for concurrent use; rule state is guarded by this instance's monitor.
 */
public final class FaultInjectingFileSystem implements FileSystem {
    /** The operations a fault can target. */
    public enum Op {
        /** {@code createTable}, {@code createLog}. */
        CREATE,
        /** {@link WritableFile#append}. */
        APPEND,
        /** {@link WritableFile#flush}. */
        FLUSH,
        /** {@link WritableFile#sync}. */
        SYNC,
        /** {@link ReadableFile#read}, {@code readAll}. */
        READ,
        /** {@code rename}, matched on the source's name. */
        RENAME,
        DELETE,
        /** {@code syncDirectory}, matched on the directory's name. */
        SYNC_DIR,
        /** {@code openTable}. */
        OPEN,
        /** {@code list}, matched on the directory's name. */
        LIST,
        /** {@code createDirectories}, matched on the directory's name. */
        MKDIR,
        /** {@code lock}, matched on the lock file's name. */
        LOCK,
        /** {@code size}. */
        SIZE,
        /** {@link WritableFile#close}: the file is closed, then the call fails (as close(2) reports a late write error). */
        CLOSE,
        /**
         * {@code exists}: a firing fault throws {@link EngineIOException}, as {@link DefaultFileSystem#exists}
         * does when a file's existence cannot be told (whatever the fault's kind).
         */
        EXISTS
    }

    /** What a firing fault does. */
    public enum Kind {
        /** Throws {@code IOException("Input/output error (injected)")}. */
        EIO,
        /** Throws {@code IOException("No space left on device (injected)")}. */
        ENOSPC,
        /** APPEND only: passes the first half of the bytes to the file, then fails as {@link #EIO}. */
        TORN
    }

    /**
     * An immutable description of a fault, built fluently: {@code Fault.on(Op.SYNC).pathMatching(".*\\.log")
     * .after(3).times(1).error(Kind.EIO)}. Defaults: any file, no successes first, one failure, EIO.
     */
    public static final class Fault {
        private final Set<Op> ops;
        private final Pattern name;
        private final Pattern thread;
        private final int after;
        private final int times;
        private final Kind kind;

        private Fault(Set<Op> ops, Pattern name, Pattern thread, int after, int times, Kind kind) {
            this.ops = ops;
            this.name = name;
            this.thread = thread;
            this.after = after;
            this.times = times;
            this.kind = kind;
        }

        public static Fault on(Op... ops) {
            if (ops.length == 0) {
                throw new IllegalArgumentException("a fault needs at least one operation");
            }
            return new Fault(EnumSet.copyOf(Arrays.asList(ops)), null, null, 0, 1, Kind.EIO);
        }

        /** Restricts the fault to files whose whole file name (not the directory) matches {@code regex}. */
        public Fault pathMatching(String regex) {
            return new Fault(ops, Pattern.compile(regex), thread, after, times, kind);
        }

        /** Restricts the fault to calls made by threads whose whole name matches {@code regex}. */
        public Fault threadMatching(String regex) {
            return new Fault(ops, name, Pattern.compile(regex), after, times, kind);
        }

        /** Lets the first {@code n} matching operations succeed. */
        public Fault after(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("after must be >= 0: " + n);
            }
            return new Fault(ops, name, thread, n, times, kind);
        }

        /** Fails {@code k} matching operations, then lets all pass; {@link Integer#MAX_VALUE} is forever. */
        public Fault times(int k) {
            if (k < 1) {
                throw new IllegalArgumentException("times must be >= 1: " + k);
            }
            return new Fault(ops, name, thread, after, k, kind);
        }

        public Fault error(Kind k) {
            Objects.requireNonNull(k, "kind");
            if (k == Kind.TORN && !EnumSet.of(Op.APPEND).containsAll(ops)) {
                throw new IllegalArgumentException("TORN applies to APPEND only, not " + ops);
            }
            return new Fault(ops, name, thread, after, times, k);
        }

        boolean matches(Op op, String fileName, String threadName) {
            return ops.contains(op) && (name == null || name.matcher(fileName).matches())
                    && (thread == null || thread.matcher(threadName).matches());
        }

        @Override
        public String toString() {
            return "Fault" + ops + (name == null ? "" : " on /" + name + "/")
                    + (thread == null ? "" : " in threads /" + thread + "/") + " after " + after + " times " + times
                    + " " + kind;
        }
    }

    /** One checked call: its operation, the file (or directory) name and the calling thread's name. */
    public record Call(Op op, String file, String thread) {
        @Override
        public String toString() {
            return op + " " + file + " [" + thread + "]";
        }
    }

    /** An injected fault with its counters. */
    private static final class Rule {
        final Fault fault;
        long seen;
        long failed;

        Rule(Fault fault) {
            this.fault = fault;
        }
    }

    private final FileSystem delegate;
    private final List<Rule> rules = new ArrayList<>();
    /** Operations seen, by kind and file name, so tests can also observe what the engine did. */
    private final Map<Op, Map<String, Long>> seen = new EnumMap<>(Op.class);
    private final List<Call> injectedCalls = new ArrayList<>();
    private final Map<AutoCloseable, String> openFiles = new IdentityHashMap<>();
    private List<Call> trace;
    private boolean paused;
    private Consumer<Call> listener;
    private Consumer<Call> changeListener;
    private long injected;

    public FaultInjectingFileSystem(FileSystem delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Adds a fault rule, with fresh counters even if the same {@code Fault} was injected before. */
    public synchronized void inject(Fault fault) {
        rules.add(new Rule(Objects.requireNonNull(fault, "fault")));
    }

    /** Removes every rule; the {@link #injected()} count is kept. */
    public synchronized void clear() {
        rules.clear();
    }

    /**
     * While paused ({@code true}) calls pass through unchecked, uncounted, unrecorded and unheard: for a
     * test's own housekeeping (closing an engine whose disk is about to be replaced by a crash image).
     */
    public synchronized void pause(boolean on) {
        paused = on;
    }

    /** Starts recording every checked call ({@code true}, clearing what was recorded) or stops it. */
    public synchronized void trace(boolean on) {
        trace = on ? new ArrayList<>() : null;
    }

    /** The calls recorded since {@code trace(true)}, in the order they were made. */
    public synchronized List<Call> calls() {
        return trace == null ? List.of() : List.copyOf(trace);
    }

    /**
     * Calls {@code l} on the failing thread each time a fault fires, just before the call throws (a
     * test can take a crash image of the moment of the error).
     */
    public synchronized void onInject(Consumer<Call> l) {
        listener = l;
    }

    /** Calls {@code l} on the calling thread after each delete or rename that went through. */
    public synchronized void onDirectoryChange(Consumer<Call> l) {
        changeListener = l;
    }

    private void changed(Op op, Path path) {
        Consumer<Call> l;
        synchronized (this) {
            l = paused ? null : changeListener;
        }
        if (l != null) {
            Path name = path.getFileName();
            l.accept(new Call(op, name == null ? "" : name.toString(), Thread.currentThread().getName()));
        }
    }

    /** Every call failed so far, in order. */
    public synchronized List<Call> injectedCalls() {
        return List.copyOf(injectedCalls);
    }

    /** How many operations have been failed so far. */
    public synchronized long injected() {
        return injected;
    }

    /** How many {@code op} operations (failed or not) touched a file whose name matches {@code regex}. */
    public synchronized long operations(Op op, String regex) {
        long n = 0;
        for (Map.Entry<String, Long> e : seen.getOrDefault(op, Map.of()).entrySet()) {
            if (e.getKey().matches(regex)) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** The kind of failure {@code op} on {@code path} must suffer now, or null to let it run. */
    private synchronized Kind fire(Op op, Path path) {
        if (paused) {
            return null;
        }
        Path name = path.getFileName();
        String file = name == null ? "" : name.toString();
        String thread = Thread.currentThread().getName();
        seen.computeIfAbsent(op, o -> new HashMap<>()).merge(file, 1L, Long::sum);
        if (trace != null) {
            trace.add(new Call(op, file, thread));
        }
        for (Rule r : rules) {
            if (!r.fault.matches(op, file, thread)) {
                continue;
            }
            r.seen++;
            if (r.seen > r.fault.after && r.failed < r.fault.times) {
                r.failed++;
                injected++;
                injectedCalls.add(new Call(op, file, thread));
                return r.fault.kind;
            }
        }
        return null;
    }

    private void check(Op op, Path path) throws IOException {
        Kind kind = fire(op, path);
        if (kind != null) {
            throw failure(kind);
        }
    }

    /**
     * The exception for a fault that fired, after telling the listener: by then a torn append has written
     * its part and a failing close has closed the file.
     */
    private IOException failure(Kind kind) {
        Consumer<Call> l;
        Call call;
        synchronized (this) {
            l = listener;
            call = injectedCalls.get(injectedCalls.size() - 1);
        }
        if (l != null) {
            l.accept(call);
        }
        return new IOException(kind == Kind.ENOSPC ? "No space left on device (injected)"
                : "Input/output error (injected)");
    }

    @Override
    public WritableFile createTable(Path path) throws IOException {
        check(Op.CREATE, path);
        return opened(new FaultyWritableFile(path, delegate.createTable(path)), path);
    }

    @Override
    public WritableFile createLog(Path path) throws IOException {
        check(Op.CREATE, path);
        return opened(new FaultyWritableFile(path, delegate.createLog(path)), path);
    }

    @Override
    public ReadableFile openTable(Path path) throws IOException {
        check(Op.OPEN, path);
        return opened(new FaultyReadableFile(path, delegate.openTable(path)), path);
    }

    private synchronized <T extends AutoCloseable> T opened(T file, Path path) {
        Path name = path.getFileName();
        openFiles.put(file, name == null ? "" : name.toString());
        return file;
    }

    private synchronized void closed(AutoCloseable file) {
        openFiles.remove(file);
    }

    /**
     * Names of the files opened or created through this file system and not closed yet (a file that is
     * still open after its engine closed is a leaked handle).
     */
    public synchronized List<String> openFiles() {
        List<String> out = new ArrayList<>(openFiles.values());
        out.sort(null);
        return out;
    }

    @Override
    public byte[] readAll(Path path) throws IOException {
        check(Op.READ, path);
        return delegate.readAll(path);
    }

    @Override
    public boolean exists(Path path) {
        Kind kind = fire(Op.EXISTS, path);
        if (kind != null) {
            IOException e = failure(kind);
            throw new EngineIOException("cannot tell whether " + path + " exists: " + e, e);
        }
        return delegate.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        check(Op.SIZE, path);
        return delegate.size(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        check(Op.LIST, dir);
        return delegate.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        check(Op.MKDIR, dir);
        delegate.createDirectories(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        check(Op.DELETE, path);
        delegate.delete(path);
        changed(Op.DELETE, path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        check(Op.RENAME, source);
        delegate.rename(source, target);
        changed(Op.RENAME, source);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        check(Op.SYNC_DIR, dir);
        delegate.syncDirectory(dir);
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        check(Op.LOCK, lockFile);
        return delegate.lock(lockFile);
    }

    @Override
    public String tableIoMode() {
        return delegate.tableIoMode();
    }

    private final class FaultyWritableFile implements WritableFile {
        private final Path path;
        private final WritableFile file;

        FaultyWritableFile(Path path, WritableFile file) {
            this.path = path;
            this.file = file;
        }

        @Override
        public void append(byte[] b, int off, int len) throws IOException {
            Kind kind = fire(Op.APPEND, path);
            if (kind == Kind.TORN) {
                file.append(b, off, len / 2);
            }
            if (kind != null) {
                throw failure(kind);
            }
            file.append(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            check(Op.FLUSH, path);
            file.flush();
        }

        @Override
        public void sync() throws IOException {
            check(Op.SYNC, path);
            file.sync();
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public void close() throws IOException {
            Kind kind = fire(Op.CLOSE, path);
            file.close();
            closed(this);
            if (kind != null) {
                throw failure(kind);
            }
        }
    }

    private final class FaultyReadableFile implements ReadableFile {
        private final Path path;
        private final ReadableFile file;

        FaultyReadableFile(Path path, ReadableFile file) {
            this.path = path;
            this.file = file;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            check(Op.READ, path);
            file.read(position, dst, off, len);
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public void close() throws IOException {
            file.close();
            closed(this);
        }
    }
}
