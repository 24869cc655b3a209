package io.bellows.engine.internal.io;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Alignment arithmetic, aligned buffers and the support probe for direct I/O. With
 * {@link ExtendedOpenOption#DIRECT} the JDK requires the file position, the buffer address and the
 * transfer length all to be multiples of the file store's block size, and rejects anything else.
 */
final class DirectIo {
    static final int DEFAULT_BLOCK_SIZE = 4096;
    /** Block sizes above this are not believed; 1 MiB exceeds any real file store's block. */
    private static final int MAX_BLOCK_SIZE = 1 << 20;

    private DirectIo() {}

    /** The block size of the file store under {@code dir}, or 4096 when it cannot be told. */
    static int blockSize(Path dir) {
        long size;
        try {
            size = Files.getFileStore(dir).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            // NB: some file stores (and JDKs on some platforms) cannot report a block size; 4096 is the
            // block size of every mainstream Linux file system, so direct I/O still probes correctly.
            return DEFAULT_BLOCK_SIZE;
        }
        if (size <= 0 || size > MAX_BLOCK_SIZE || Long.bitCount(size) != 1) {
            return DEFAULT_BLOCK_SIZE;
        }
        return (int) size;
    }

    /** A direct buffer of exactly {@code capacity} bytes whose address is a multiple of {@code align}. */
    static ByteBuffer allocateAligned(int capacity, int align) {
        return ByteBuffer.allocateDirect(capacity + align).alignedSlice(align).slice(0, capacity);
    }

    static long alignDown(long v, int align) {
        return v & -(long) align;
    }

    static long alignUp(long v, int align) {
        return (v + align - 1) & -(long) align;
    }

    /**
     * Whether the file system under {@code dir} accepts direct I/O: writes one aligned block to a probe
     * file opened with {@link ExtendedOpenOption#DIRECT}, reads it back and deletes the file. Any failure
     * (tmpfs and some overlay file systems refuse O_DIRECT) means no.
     */
    static boolean probe(Path dir, int align) {
        Path probe = null;
        try {
            probe = Files.createTempFile(dir, ".direct-io-probe", ".tmp");
            ByteBuffer out = allocateAligned(align, align);
            for (int i = 0; i < align; i++) {
                out.put(i, (byte) (i * 31 + 7));
            }
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.WRITE, StandardOpenOption.READ,
                    ExtendedOpenOption.DIRECT)) {
                while (out.hasRemaining()) {
                    ch.write(out, out.position());
                }
                ByteBuffer in = allocateAligned(align, align);
                while (in.hasRemaining()) {
                    if (ch.read(in, in.position()) < 0) {
                        return false;
                    }
                }
                return in.flip().equals(out.flip());
            }
        } catch (IOException | RuntimeException e) {
            return false;
        } finally {
            deleteQuietly(probe);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // NB: a leftover probe file is harmless (the engine ignores names it does not own) and must not
            // turn "direct I/O is unsupported" into "the engine cannot open".
        }
    }
}
