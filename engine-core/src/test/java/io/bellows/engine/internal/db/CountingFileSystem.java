package io.bellows.engine.internal.db;

import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/** An in-memory file system that counts every byte appended to table files and to manifests. */
final class CountingFileSystem extends DelegatingFileSystem {
    final LongAdder tableBytes = new LongAdder();
    final LongAdder manifestBytes = new LongAdder();

    CountingFileSystem() {
        super(new CrashableFileSystem());
    }

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
}
