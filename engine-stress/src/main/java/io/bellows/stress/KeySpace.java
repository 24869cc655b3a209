package io.bellows.stress;

/**
 * The keys a store is stressed with, fixed when the store is created. Single keys ({@code s} and a
 * 4-byte slot) are written by puts and deletes; group keys ({@code g}, a 4-byte group and a member
 * byte) only by WriteBatches that write every member of one group, so that recovery can check each
 * batch was applied whole. During one run, thread {@code t} of {@code T} owns the slots and groups
 * equal to {@code t} modulo {@code T} and is their only writer, so each key's writes are ordered by
 * its owner and carry increasing counters.
 */
final class KeySpace {
    static final byte SINGLE = 's';
    static final byte MEMBER = 'g';
    static final int MAX_MEMBERS = 8;

    private final int singles;
    private final int groups;
    private final int maxMembers;

    KeySpace(int singles, int groups, int maxMembers) {
        if (singles < 1 || groups < 1 || maxMembers < 2 || maxMembers > MAX_MEMBERS) {
            throw new IllegalArgumentException("key space: singles " + singles + ", groups " + groups + ", members "
                    + maxMembers);
        }
        this.singles = singles;
        this.groups = groups;
        this.maxMembers = maxMembers;
    }

    int singles() {
        return singles;
    }

    int groups() {
        return groups;
    }

    int maxMembers() {
        return maxMembers;
    }

    /** Members of group {@code g}: 2 to maxMembers, a fixed function of g. */
    int members(int g) {
        return 2 + (int) Long.remainderUnsigned(Values.mix(0x6A09E667F3BCC909L ^ g), maxMembers - 1);
    }

    static byte[] single(int slot) {
        byte[] k = new byte[5];
        k[0] = SINGLE;
        putInt(k, 1, slot);
        return k;
    }

    static byte[] member(int group, int member) {
        byte[] k = new byte[6];
        k[0] = MEMBER;
        putInt(k, 1, group);
        k[5] = (byte) member;
        return k;
    }

    /** Value key id of a group member: group and member in one int. */
    static int memberId(int group, int member) {
        return group << 8 | member;
    }

    /** Whether {@code key} is one of this key space's keys. */
    boolean contains(byte[] key) {
        if (key.length == 5 && key[0] == SINGLE) {
            int slot = getInt(key, 1);
            return slot >= 0 && slot < singles;
        }
        if (key.length == 6 && key[0] == MEMBER) {
            int g = getInt(key, 1);
            return g >= 0 && g < groups && (key[5] & 0xFF) < members(g);
        }
        return false;
    }

    /** A printable name: {@code s:12} or {@code g:7/2}. */
    static String name(byte[] key) {
        if (key.length == 5 && key[0] == SINGLE) {
            return "s:" + getInt(key, 1);
        }
        if (key.length == 6 && key[0] == MEMBER) {
            return "g:" + getInt(key, 1) + "/" + (key[5] & 0xFF);
        }
        StringBuilder sb = new StringBuilder("0x");
        for (byte b : key) {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    static int getInt(byte[] b, int off) {
        return (b[off] & 0xFF) << 24 | (b[off + 1] & 0xFF) << 16 | (b[off + 2] & 0xFF) << 8 | b[off + 3] & 0xFF;
    }

    static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) (v >>> 32));
        putInt(b, off + 4, (int) v);
    }

    static long getLong(byte[] b, int off) {
        return (long) getInt(b, off) << 32 | getInt(b, off + 4) & 0xFFFFFFFFL;
    }
}
