package io.bellows.engine.offheap;

import io.netty.buffer.ByteBuf;

/**
 * One off-heap chunk: a fixed-size data or index chunk, or a jumbo chunk sized to one large cell.
 * {@link #buf} is what readers and writers touch; {@link #owner} is what the pool releases. They differ
 * only when netty's leak detector wraps the buffer: access goes around the wrapper, whose per-access
 * records (at PARANOID, a stack trace per call) would make every key comparison a slow path, while
 * the wrapper still sees the release and so still reports a chunk that was never returned.
 */
final class Chunk {
    final ByteBuf owner;
    final ByteBuf buf;
    final int capacity;
    final Kind kind;

    enum Kind {
        DATA,
        INDEX,
        JUMBO
    }

    Chunk(ByteBuf owner, Kind kind) {
        this.owner = owner;
        ByteBuf inner = owner.unwrap();
        this.buf = inner != null ? inner : owner;
        this.capacity = owner.capacity();
        this.kind = kind;
    }
}
