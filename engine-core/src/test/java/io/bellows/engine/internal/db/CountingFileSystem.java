package io.bellows.engine.internal.db;

import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.version.FileNames;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** An in-memory file system that counts every byte appended to table files and to manifests. */
final class CountingFileSystem implements FileSystem {
    private final FileSystem fs = new CrashableFileSystem();
    final LongAdder tableBytes = new LongAdder();
    final LongAdder manifestBytes = new LongAdder();

    @Override
    public WritableFile createTable(Path path) throws IOException {
        return counted(fs.createTable(path), tableBytes);
    }

    @Override
    public WritableFile createLog(Path path) throws IOException {
        WritableFile f = fs.createLog(path);
        return FileNames.manifestNumber(path.getFileName().toString()) >= 0 ? counted(f, manifestBytes) : f;
    }

    private static WritableFile counted(WritableFile f, LongAdder count) {
        return new WritableFile() {
            @Override
            public void append(byte[] b, int off, int len) throws IOException {
                f.append(b, off, len);
                count.add(len);
            }

            @Override
            public void flush() throws IOException {
                f.flush();
            }

            @Override
            public void sync() throws IOException {
                f.sync();
            }

            @Override
            public long size() {
                return f.size();
            }

            @Override
            public void close() throws IOException {
                f.close();
            }
        };
    }

    @Override
    public ReadableFile openTable(Path path) throws IOException {
        return fs.openTable(path);
    }

    @Override
    public ReadableFile openLog(Path path) throws IOException {
        return fs.openLog(path);
    }

    @Override
    public byte[] readAll(Path path) throws IOException {
        return fs.readAll(path);
    }

    @Override
    public boolean exists(Path path) {
        return fs.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return fs.size(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        return fs.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        fs.createDirectories(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        fs.delete(path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        fs.rename(source, target);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        fs.syncDirectory(dir);
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        return fs.lock(lockFile);
    }

    @Override
    public String tableIoMode() {
        return fs.tableIoMode();
    }
}
