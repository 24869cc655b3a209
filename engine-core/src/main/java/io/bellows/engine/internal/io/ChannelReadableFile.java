package io.bellows.engine.internal.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Reads a table file through the page cache, for file systems without direct I/O. Positional reads
 * straight into the caller's array; no staging copy.
 *
 * <p>Thread safety: safe for concurrent reads.
 */
final class ChannelReadableFile implements ReadableFile {
    private final Path path;
    private final ReopeningChannel channel;

    ChannelReadableFile(Path path) throws IOException {
        this.path = path;
        this.channel = new ReopeningChannel(path, StandardOpenOption.READ);
    }

    @Override
    public void read(long position, byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        channel.read(ch -> {
            ByteBuffer bb = ByteBuffer.wrap(dst, off, len);
            while (bb.hasRemaining()) {
                if (ch.read(bb, position + (bb.position() - off)) < 0) {
                    throw new EOFException(path + ": read of " + len + " bytes at " + position
                            + " passes the end of the " + channel.size() + "-byte file");
                }
            }
            return null;
        });
    }

    @Override
    public long size() {
        return channel.size();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
