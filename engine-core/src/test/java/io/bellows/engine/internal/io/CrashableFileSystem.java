package io.bellows.engine.internal.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An in-memory file system that can simulate a machine crash, so recovery can be tested against
 * exactly what a real disk guarantees (Pebble's crashable MemFS, LevelDB's fault-injection Env).
 *
 * <p>Model: a file is an inode with its bytes and the length made durable by its last
 * {@link WritableFile#sync}. Directory entries live in two maps: the live one every operation sees,
 * and the durable one, into which {@link #syncDirectory} copies a directory's live entries (creations,
 * renames and deletions alike). {@link #crash()} keeps the durable entries only, each file cut to its
 * synced length. Like POSIX, an open file keeps writing to its inode across renames and deletes, and a
 * file created over an existing name truncates that inode (immediately durable, as a journaled
 * truncate is once the entry exists).
 *
 * <p>Simplifications: paths are keys ({@code toAbsolutePath().normalize()}); creating a file creates
 * its missing parent directories, and directories are durable as soon as they exist.
 *
 * <p>Thread safety: every operation, including those on the files it returns, holds this instance's
 * monitor.
 */
public final class CrashableFileSystem implements FileSystem {
    /** An inode. */
    private static final class Node {
        byte[] data;
        int length;
        int synced;

        Node(byte[] data, int length) {
            this.data = data;
            this.length = length;
        }
    }

    private final Map<Path, Node> live = new TreeMap<>();
    private final Map<Path, Node> durable = new TreeMap<>();
    private final Set<Path> directories = new TreeSet<>();
    private final Set<Path> locked = new HashSet<>();

    public CrashableFileSystem() {}

    /**
     * A new file system holding what would survive a machine crash now: the durable directory entries,
     * each file cut to its synced length. This instance is left as it was and should not be used again;
     * locks are not carried over.
     */
    public CrashableFileSystem crash() {
        return crash(null);
    }

    /**
     * Like {@link #crash()}, but each file also keeps a prefix of its unsynced tail, of a length drawn
     * from {@code seed}: a torn write, as when the disk persisted some of the dirty pages.
     */
    public CrashableFileSystem crash(long seed) {
        return crash(new Random(seed));
    }

    /**
     * A new file system holding what survives a crash of the process now (the OS keeps every byte
     * written to it): every live entry with all its bytes, and the same durable state as this one, so
     * a later {@link #crash()} of the copy loses what a machine crash would. Locks are released, as the
     * process holding them died. This instance is left as it was; threads still writing to it do not
     * reach the copy.
     */
    public synchronized CrashableFileSystem processCrash() {
        CrashableFileSystem after = new CrashableFileSystem();
        after.directories.addAll(directories);
        Map<Node, Node> copies = new HashMap<>();
        for (Map.Entry<Path, Node> e : live.entrySet()) {
            after.live.put(e.getKey(), copies.computeIfAbsent(e.getValue(), CrashableFileSystem::copy));
        }
        for (Map.Entry<Path, Node> e : durable.entrySet()) {
            after.durable.put(e.getKey(), copies.computeIfAbsent(e.getValue(), CrashableFileSystem::copy));
        }
        return after;
    }

    /**
     * Makes this file system hold what {@code image} holds, as a machine rebooting onto the disk a crash
     * left: its live and durable entries (copied), no locks. Files still open on the old state write to
     * nothing anyone can see; close them first.
     */
    public void replaceWith(CrashableFileSystem image) {
        CrashableFileSystem copy = image.processCrash();
        synchronized (this) {
            live.clear();
            live.putAll(copy.live);
            durable.clear();
            durable.putAll(copy.durable);
            directories.clear();
            directories.addAll(copy.directories);
            locked.clear();
        }
    }

    private static Node copy(Node node) {
        Node copy = new Node(Arrays.copyOf(node.data, Math.max(node.length, 16)), node.length);
        copy.synced = node.synced;
        return copy;
    }

    private synchronized CrashableFileSystem crash(Random torn) {
        CrashableFileSystem after = new CrashableFileSystem();
        after.directories.addAll(directories);
        Map<Node, Node> copies = new HashMap<>();
        for (Map.Entry<Path, Node> e : durable.entrySet()) {
            Node node = e.getValue();
            Node copy = copies.get(node);
            if (copy == null) {
                int keep = node.synced;
                if (torn != null && node.length > node.synced) {
                    keep += torn.nextInt(node.length - node.synced + 1);
                }
                copy = new Node(Arrays.copyOf(node.data, Math.max(keep, 16)), keep);
                copy.synced = keep;
                copies.put(node, copy);
            }
            after.live.put(e.getKey(), copy);
            after.durable.put(e.getKey(), copy);
        }
        return after;
    }

    /** Replaces {@code path}'s contents with {@code contents}, durably (tests damage files with it). */
    public void overwrite(Path path, byte[] contents) throws IOException {
        try (WritableFile f = createLog(path)) {
            f.append(contents, 0, contents.length);
            f.sync();
        }
    }

    @Override
    public synchronized WritableFile createTable(Path path) throws IOException {
        return create(path);
    }

    @Override
    public synchronized WritableFile createLog(Path path) throws IOException {
        return create(path);
    }

    private WritableFile create(Path path) throws IOException {
        Path key = key(path);
        if (directories.contains(key)) {
            throw new FileAlreadyExistsException(key + " is a directory");
        }
        Node node = live.get(key);
        if (node == null) {
            addDirectories(key.getParent());
            node = new Node(new byte[256], 0);
            live.put(key, node);
        } else {
            node.length = 0;
            node.synced = 0;
        }
        return new MemWritableFile(key, node);
    }

    @Override
    public synchronized ReadableFile openTable(Path path) throws IOException {
        Path key = key(path);
        return new MemReadableFile(key, node(key));
    }

    @Override
    public synchronized byte[] readAll(Path path) throws IOException {
        Node node = node(key(path));
        return Arrays.copyOf(node.data, node.length);
    }

    @Override
    public synchronized boolean exists(Path path) {
        Path key = key(path);
        return live.containsKey(key) || directories.contains(key);
    }

    @Override
    public synchronized long size(Path path) throws IOException {
        return node(key(path)).length;
    }

    @Override
    public synchronized List<String> list(Path dir) throws IOException {
        Path key = key(dir);
        List<String> names = new ArrayList<>();
        for (Path p : live.keySet()) {
            if (key.equals(p.getParent())) {
                names.add(p.getFileName().toString());
            }
        }
        for (Path d : directories) {
            if (key.equals(d.getParent())) {
                names.add(d.getFileName().toString());
            }
        }
        if (!directories.contains(key)) {
            throw new NoSuchFileException(key.toString());
        }
        return names;
    }

    @Override
    public synchronized void createDirectories(Path dir) throws IOException {
        addDirectories(key(dir));
    }

    private void addDirectories(Path dir) throws IOException {
        for (Path d = dir; d != null; d = d.getParent()) {
            if (live.containsKey(d)) {
                throw new FileAlreadyExistsException(d + " is a file");
            }
            directories.add(d);
        }
    }

    @Override
    public synchronized void delete(Path path) {
        live.remove(key(path));
    }

    @Override
    public synchronized void rename(Path source, Path target) throws IOException {
        Path from = key(source);
        Path to = key(target);
        Node node = node(from);
        addDirectories(to.getParent());
        live.remove(from);
        live.put(to, node);
    }

    @Override
    public synchronized void syncDirectory(Path dir) {
        Path key = key(dir);
        durable.keySet().removeIf(p -> key.equals(p.getParent()));
        for (Map.Entry<Path, Node> e : live.entrySet()) {
            if (key.equals(e.getKey().getParent())) {
                durable.put(e.getKey(), e.getValue());
            }
        }
    }

    @Override
    public synchronized Closeable lock(Path lockFile) throws IOException {
        Path key = key(lockFile);
        if (locked.contains(key)) {
            throw new IOException("directory " + key.getParent() + " is already in use by another Bellows engine ("
                    + key.getFileName() + " held)");
        }
        if (!live.containsKey(key)) {
            addDirectories(key.getParent());
            live.put(key, new Node(new byte[16], 0));
        }
        locked.add(key);
        return new Closeable() {
            private boolean released;

            @Override
            public void close() {
                synchronized (CrashableFileSystem.this) {
                    if (!released) {
                        released = true;
                        locked.remove(key);
                    }
                }
            }
        };
    }

    @Override
    public String tableIoMode() {
        return "memory";
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private Node node(Path key) throws NoSuchFileException {
        Node node = live.get(key);
        if (node == null) {
            throw new NoSuchFileException(key.toString());
        }
        return node;
    }

    private final class MemWritableFile implements WritableFile {
        private final Path path;
        private final Node node;
        private long size;
        private boolean closed;

        MemWritableFile(Path path, Node node) {
            this.path = path;
            this.node = node;
        }

        @Override
        public void append(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            synchronized (CrashableFileSystem.this) {
                ensureOpen();
                long end = (long) node.length + len;
                if (end > Integer.MAX_VALUE - 8) {
                    throw new IOException(path + ": in-memory file larger than 2 GiB");
                }
                if (end > node.data.length) {
                    node.data = Arrays.copyOf(node.data, (int) Math.min(Integer.MAX_VALUE - 8,
                            Math.max(end, 2L * node.data.length)));
                }
                System.arraycopy(b, off, node.data, node.length, len);
                node.length = (int) end;
                size += len;
            }
        }

        @Override
        public void flush() throws IOException {
            synchronized (CrashableFileSystem.this) {
                ensureOpen();
            }
        }

        @Override
        public void sync() throws IOException {
            synchronized (CrashableFileSystem.this) {
                ensureOpen();
                node.synced = node.length;
            }
        }

        @Override
        public long size() {
            synchronized (CrashableFileSystem.this) {
                return size;
            }
        }

        @Override
        public void close() {
            synchronized (CrashableFileSystem.this) {
                closed = true;
            }
        }

        private void ensureOpen() throws IOException {
            if (closed) {
                throw new IOException(path + ": file is closed");
            }
        }
    }

    private final class MemReadableFile implements ReadableFile {
        private final Path path;
        private final Node node;

        MemReadableFile(Path path, Node node) {
            this.path = path;
            this.node = node;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, dst.length);
            if (position < 0) {
                throw new IllegalArgumentException("negative position " + position);
            }
            synchronized (CrashableFileSystem.this) {
                if (position + len > node.length) {
                    throw new EOFException(path + ": read of " + len + " bytes at " + position
                            + " passes the end of the " + node.length + "-byte file");
                }
                System.arraycopy(node.data, (int) position, dst, off, len);
            }
        }

        @Override
        public long size() {
            synchronized (CrashableFileSystem.this) {
                return node.length;
            }
        }

        @Override
        public void close() {}
    }
}
