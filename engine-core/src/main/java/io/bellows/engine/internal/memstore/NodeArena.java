package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.CountedMemory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The memory of an {@link InlineSkipListSegment}: nodes (header and links) in {@code long[]} chunks, keys
 * and values in the MSLAB pool's byte-array chunks. Links live in {@code long[]} so they can be read and
 * written with acquire and release semantics through an array-element VarHandle: byte-array view
 * VarHandles offer only plain access since JDK 22. A key and value larger than an eighth of a data chunk
 * get an array of their own, never pooled, as the MSLAB gives a large cell. Addresses are longs, chunk
 * index in the high half and offset in the low; chunk index 0 is never used, so address 0 is null.
 *
 * <p>Thread safety: one thread allocates (the segment's single writer). Readers resolve addresses they
 * obtained through a release store of the writer, made after the chunk was entered in its table, so the
 * table they read (volatile) holds it. Reference counts are atomic; the data chunks go back to the pool
 * when the last reference is released (node chunks are left to the garbage collector).
 */
final class NodeArena extends CountedMemory {
    static final long NULL = 0;
    private static final VarHandle USED;

    static {
        try {
            USED = MethodHandles.lookup().findVarHandle(NodeArena.class, "used", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ChunkPool pool;
    private final int maxAllocation;
    /**
     * Longs per node chunk: half the bytes of a data chunk (about the ratio of node to entry bytes), at most
     * 256 KiB, below G1's humongous size, since node chunks are not pooled and go to the collector.
     */
    private final int nodeChunkLongs;

    private volatile byte[][] dataChunks = new byte[16][];
    private int dataCount = 1;
    private final List<byte[]> pooled = new ArrayList<>();
    private byte[] data;
    private int dataIndex;
    private int dataOffset;

    private volatile long[][] nodeChunks = new long[16][];
    private int nodeCount = 1;
    private long[] nodes;
    private int nodeOffset;

    /**
     * Bytes of the nodes, keys and values allocated: what the entries take. Not whole chunks: a fresh
     * segment would weigh a 2 MiB chunk at its first entry, and a MemStore budget of a few MiB shared by
     * engines would flush them all at once (the MSLAB's cells are counted by their bytes too). Written by the
     * writer with opaque stores, read by stats and budgets with opaque loads: atomic without the fence a
     * volatile store costs on every put.
     */
    private long used;

    /** Starts with one reference, the creator's. */
    NodeArena(ChunkPool pool) {
        this.pool = pool;
        this.maxAllocation = pool.chunkSize() / 8;
        this.nodeChunkLongs = Math.max(256, Math.min(1 << 15, pool.chunkSize() / 16));
    }

    /** The address of {@code longs} fresh longs for a node. Writer only. */
    long allocateNode(int longs) {
        if (nodes == null || nodeOffset + longs > nodes.length) {
            nodes = new long[nodeChunkLongs];
            long[][] table = nodeChunks;
            if (nodeCount == table.length) {
                table = Arrays.copyOf(table, 2 * table.length);
                table[nodeCount] = nodes;
                nodeChunks = table;
            } else {
                table[nodeCount] = nodes;
            }
            nodeCount++;
            nodeOffset = 0;
        }
        long a = address(nodeCount - 1, nodeOffset);
        nodeOffset += longs;
        USED.setOpaque(this, used + 8L * longs);
        return a;
    }

    /** The address of {@code size} fresh bytes for a key and value. Writer only. */
    long allocateData(int size) {
        USED.setOpaque(this, used + size);
        if (size > maxAllocation) {
            return address(registerData(new byte[size]), 0);
        }
        if (data == null || dataOffset + size > data.length) {
            data = pool.take();
            pooled.add(data);
            dataIndex = registerData(data);
            dataOffset = 0;
        }
        long a = address(dataIndex, dataOffset);
        dataOffset += size;
        return a;
    }

    private int registerData(byte[] chunk) {
        byte[][] table = dataChunks;
        if (dataCount == table.length) {
            table = Arrays.copyOf(table, 2 * table.length);
            table[dataCount] = chunk;
            dataChunks = table;
        } else {
            table[dataCount] = chunk;
        }
        return dataCount++;
    }

    private static long address(int chunk, int offset) {
        return ((long) chunk << 32) | offset;
    }

    /** The chunk holding the node at {@code address}. */
    long[] nodes(long address) {
        return nodeChunks[(int) (address >>> 32)];
    }

    /** The array holding the bytes at {@code address}. */
    byte[] data(long address) {
        return dataChunks[(int) (address >>> 32)];
    }

    static int offset(long address) {
        return (int) address;
    }

    /** Bytes of the nodes, keys and values allocated. */
    long usedBytes() {
        return (long) USED.getOpaque(this);
    }

    @Override
    protected void recycle() {
        for (byte[] c : pooled) {
            pool.give(c);
        }
        pooled.clear();
        data = null;
    }

    @Override
    protected String what() {
        return "node arena";
    }
}
