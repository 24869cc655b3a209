package io.bellows.stress;

import java.util.Arrays;

/**
 * Values written by the stress workers. A value names its key, the counter of the write that made it,
 * the writing thread and its own length, followed by padding that is a function of those, so the
 * checker can rebuild the exact bytes of any attempted write and tell a wrong, stale, foreign or
 * damaged value from the right one. Group members of one batch share the counter; the batch's
 * counter also decides which members it deletes and which get a decoy value first (a put overwritten
 * later in the same batch, which must never be visible).
 */
final class Values {
    static final int HEADER = 19;
    static final byte KIND_SINGLE = 'S';
    static final byte KIND_MEMBER = 'G';
    static final byte KIND_DECOY = 'X';
    private static final byte MAGIC = 'V';

    private Values() {}

    /** What a value's header says; {@link #parse} returns null for bytes that are not a stress value. */
    record Parsed(byte kind, int thread, int keyId, long counter, int length) {}

    static byte[] make(byte kind, int thread, int keyId, long counter, int length) {
        if (length < HEADER) {
            throw new IllegalArgumentException("value length " + length + " < header " + HEADER);
        }
        byte[] v = new byte[length];
        v[0] = MAGIC;
        v[1] = kind;
        v[2] = (byte) thread;
        KeySpace.putInt(v, 3, keyId);
        KeySpace.putLong(v, 7, counter);
        KeySpace.putInt(v, 15, length);
        long s = mix(((long) keyId << 32 ^ counter) + kind * 0x9E3779B97F4A7C15L + thread);
        for (int i = HEADER; i < length; i++) {
            if ((i - HEADER & 7) == 0) {
                s = mix(s + 0x9E3779B97F4A7C15L);
            }
            v[i] = (byte) (s >>> ((i - HEADER & 7) << 3));
        }
        return v;
    }

    static Parsed parse(byte[] v) {
        if (v == null || v.length < HEADER || v[0] != MAGIC || KeySpace.getInt(v, 15) != v.length) {
            return null;
        }
        return new Parsed(v[1], v[2] & 0xFF, KeySpace.getInt(v, 3), KeySpace.getLong(v, 7), v.length);
    }

    /** Whether {@code v} is exactly the value its header describes (no damaged byte). */
    static boolean intact(byte[] v) {
        Parsed p = parse(v);
        return p != null && Arrays.equals(v, make(p.kind(), p.thread(), p.keyId(), p.counter(), p.length()));
    }

    /** Whether the batch with {@code counter} deletes {@code member} of {@code group} (always true for a group delete). */
    static boolean deletes(long counter, int group, int member, int members, boolean deleteAll) {
        if (deleteAll) {
            return true;
        }
        // One member is always put, so a batch that is not a group delete never leaves the group empty.
        if (member == (int) Long.remainderUnsigned(counter, members)) {
            return false;
        }
        return (mix(counter * 31 + group * 0x2545F4914F6CDD1DL + member) & 3) == 0;
    }

    /** Whether the batch with {@code counter} first puts a decoy into {@code member} (when it has decoys). */
    static boolean decoy(long counter, int group, int member) {
        return (mix(counter ^ 0x5851F42D4C957F2DL * (group + 1) ^ member) & 1) == 0;
    }

    /** SplitMix64's finalizer: a cheap, well-mixed function of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
