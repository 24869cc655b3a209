package io.bellows.kafka;

import java.util.Arrays;

/**
 * The keys of window and session segments: the record key, escaped so that no encoded key is a prefix of
 * another (each 0x00 byte becomes 0x00 0x01), the terminator 0x00 0x00, then fixed-width fields: for
 * windows the window start and a sequence number, for sessions the session end and start. The escape
 * keeps unsigned byte order, so one key's entries are contiguous and ordered by time, and a key range
 * maps to exactly one range of encoded keys. Times are stored big-endian with the sign bit flipped, so
 * negative times sort first too.
 */
final class TimeKeys {
    /** The bytes after the escaped key and terminator in a window key: start time, sequence number. */
    static final int WINDOW_SUFFIX = 8 + 4;
    /** The bytes after the escaped key and terminator in a session key: end time, start time. */
    static final int SESSION_SUFFIX = 8 + 8;

    private TimeKeys() {
    }

    /** The escaped key followed by the terminator and {@code suffix} free bytes. */
    static byte[] withSuffix(byte[] key, int suffix) {
        int zeros = 0;
        for (byte b : key) {
            if (b == 0) {
                zeros++;
            }
        }
        byte[] out = new byte[key.length + zeros + 2 + suffix];
        int p = 0;
        for (byte b : key) {
            out[p++] = b;
            if (b == 0) {
                out[p++] = 1;
            }
        }
        out[p] = 0;
        out[p + 1] = 0;
        return out;
    }

    /** The least encoded key of {@code key} (its escaped form and terminator, nothing after). */
    static byte[] keyStart(byte[] key) {
        return withSuffix(key, 0);
    }

    /** The least byte string above every encoded key of {@code key}: escaped key, then 0x00 0x01. */
    static byte[] keyEnd(byte[] key) {
        byte[] end = withSuffix(key, 0);
        end[end.length - 1] = 1;
        return end;
    }

    static byte[] windowKey(byte[] key, long start, int seq) {
        byte[] out = withSuffix(key, WINDOW_SUFFIX);
        putLong(out, out.length - 12, start);
        putInt(out, out.length - 4, seq);
        return out;
    }

    static byte[] sessionKey(byte[] key, long end, long start) {
        byte[] out = withSuffix(key, SESSION_SUFFIX);
        putLong(out, out.length - 16, end);
        putLong(out, out.length - 8, start);
        return out;
    }

    /** The record key of an encoded key with {@code suffix} bytes after the terminator. */
    static byte[] key(byte[] encoded, int suffix) {
        int escapedEnd = encoded.length - suffix - 2;
        byte[] out = new byte[escapedEnd];
        int n = 0;
        for (int i = 0; i < escapedEnd; i++) {
            out[n++] = encoded[i];
            if (encoded[i] == 0) {
                i++;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** The first time of an encoded key with {@code suffix} bytes after the terminator (window start, session end). */
    static long firstTime(byte[] encoded, int suffix) {
        return getLong(encoded, encoded.length - suffix);
    }

    /** A session key's start time. */
    static long sessionStart(byte[] encoded) {
        return getLong(encoded, encoded.length - 8);
    }

    static void putLong(byte[] b, int off, long v) {
        long u = v ^ Long.MIN_VALUE;
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) u;
            u >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long u = 0;
        for (int i = 0; i < 8; i++) {
            u = (u << 8) | (b[off + i] & 0xFF);
        }
        return u ^ Long.MIN_VALUE;
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
