package io.bellows.engine.internal.db;

import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.io.WritableFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A file system that passes every call to another; tests override the calls they watch or hold. */
abstract class DelegatingFileSystem implements FileSystem {
    final FileSystem fs;

    DelegatingFileSystem(FileSystem fs) {
        this.fs = fs;
    }

    @Override
    public WritableFile createTable(Path path) throws IOException {
        return fs.createTable(path);
    }

    @Override
    public WritableFile createLog(Path path) throws IOException {
        return fs.createLog(path);
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
