package io.bellows.engine.internal.io;

import io.bellows.engine.EngineIOException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The production file layer over {@link FileChannel}. Table files use direct I/O when the file system
 * under the engine's directory accepts it, because the engine caches table blocks itself and the page
 * cache would hold the same bytes a second time; logs always go through the page cache, since their
 * appends are small and each sync would otherwise cost a padded block write.
 *
 * <p>NB: a {@link FileChannel} is closed by {@link Thread#interrupt()} of any thread blocked in it, for
 * every thread that shares it; the engine must not interrupt threads that do I/O.
 *
 * <p>Thread safety: safe for concurrent use; the files it returns follow their interfaces' rules.
 */
public final class DefaultFileSystem implements FileSystem {
    private static final boolean WINDOWS =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final boolean direct;
    private final int align;

    private DefaultFileSystem(boolean direct, int align) {
        this.direct = direct;
        this.align = align;
    }

    /**
     * Creates {@code dir} if needed and returns a file system for the files under it. When
     * {@code directIoRequested}, probes {@code dir} and uses direct I/O for tables if it works there;
     * {@link #tableIoMode()} tells which mode was chosen.
     */
    public static DefaultFileSystem forDirectory(Path dir, boolean directIoRequested) throws IOException {
        Files.createDirectories(dir);
        int align = DirectIo.blockSize(dir);
        return new DefaultFileSystem(directIoRequested && DirectIo.probe(dir, align), align);
    }

    @Override
    public WritableFile createTable(Path path) throws IOException {
        return direct ? new DirectTableWriter(path, align) : new BufferedWritableFile(path);
    }

    @Override
    public WritableFile createLog(Path path) throws IOException {
        return new BufferedWritableFile(path);
    }

    @Override
    public ReadableFile openTable(Path path) throws IOException {
        return direct ? new DirectTableReader(path, align) : new ChannelReadableFile(path);
    }

    @Override
    public ReadableFile openLog(Path path) throws IOException {
        return new ChannelReadableFile(path);
    }

    @Override
    public byte[] readAll(Path path) throws IOException {
        return Files.readAllBytes(path);
    }

    @Override
    public boolean exists(Path path) {
        try {
            Files.readAttributes(path, BasicFileAttributes.class);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            // Not Files.exists: it answers false when the check fails, and a store whose CURRENT cannot be
            // checked would be taken for a new one and have its files swept away.
            throw new EngineIOException("cannot tell whether " + path + " exists: " + e, e);
        }
    }

    @Override
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException e) {
            if (WINDOWS) {
                // NB: Windows cannot open a directory as a file; NTFS journals directory entries itself.
                return;
            }
            throw e;
        }
        try (FileChannel ch = channel) {
            ch.force(true);
        }
    }

    @Override
    public void linkOrCopy(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (UnsupportedOperationException | IOException e) {
            // Another file system, or one without hard links: copy, and make the copy durable.
            Files.copy(source, target);
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        return DirectoryLock.acquire(lockFile);
    }

    @Override
    public String tableIoMode() {
        return direct ? "direct" : "buffered";
    }
}
