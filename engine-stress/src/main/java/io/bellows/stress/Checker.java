package io.bellows.stress;

import java.util.Arrays;

/**
 * Checks on what a read returned that need no history: that a key and value belong to the key space
 * and were written as they read, and which batch a group's members come from. Shared by the child's
 * running checks and the parent's recovery check.
 */
final class Checker {
    private Checker() {}

    /** What a group's members say about the batch that wrote them; {@code problem} is set when no single batch could have. */
    record GroupState(boolean absent, long counter, int length, int thread, String problem) {}

    /**
     * The batch a group's members were written by: absent when no member is present, otherwise the one
     * batch counter every present member carries, whose deletes are exactly the absent members.
     */
    static GroupState groupState(int g, int members, byte[][] found) {
        Values.Parsed first = null;
        int firstMember = -1;
        for (int m = 0; m < members; m++) {
            if (found[m] == null) {
                continue;
            }
            Values.Parsed p = Values.parse(found[m]);
            if (p == null || !Values.intact(found[m]) || p.keyId() != KeySpace.memberId(g, m)) {
                return problem("member " + KeySpace.name(KeySpace.member(g, m)) + " holds a value never written to it: "
                        + show(found[m]));
            }
            if (p.kind() == Values.KIND_DECOY) {
                return problem("member " + KeySpace.name(KeySpace.member(g, m)) + " holds the decoy that batch "
                        + hex(p.counter()) + " put before overwriting it (in-batch order broken): " + show(found[m]));
            }
            if (p.kind() != Values.KIND_MEMBER) {
                return problem("member " + KeySpace.name(KeySpace.member(g, m)) + " holds a non-member value: " + show(found[m]));
            }
            if (first == null) {
                first = p;
                firstMember = m;
            } else if (p.counter() != first.counter() || p.length() != first.length() || p.thread() != first.thread()) {
                return problem("group g:" + g + " mixes batches: member " + firstMember + " from batch " + hex(first.counter())
                        + ", member " + m + " from batch " + hex(p.counter()) + " (" + describe(g, members, found) + ")");
            }
        }
        if (first == null) {
            return new GroupState(true, -1, -1, 0, null);
        }
        for (int m = 0; m < members; m++) {
            boolean deleted = Values.deletes(first.counter(), g, m, members, false);
            if (deleted != (found[m] == null)) {
                return problem("group g:" + g + " is partly applied: batch " + hex(first.counter())
                        + (deleted ? " deletes" : " puts")
                        + " member " + m + " but it is " + (found[m] == null ? "absent" : "present") + " ("
                        + describe(g, members, found) + ")");
            }
        }
        return new GroupState(false, first.counter(), first.length(), first.thread(), null);
    }

    private static GroupState problem(String s) {
        return new GroupState(false, -1, -1, 0, s);
    }

    /** Why {@code key}/{@code value} cannot have been written by a worker, or null when they can. */
    static String foreign(KeySpace ks, byte[] key, byte[] value) {
        if (!ks.contains(key)) {
            return "key " + KeySpace.name(key) + " was never written (not in the key space)";
        }
        Values.Parsed p = Values.parse(value);
        boolean single = key[0] == KeySpace.SINGLE;
        int id = single ? KeySpace.getInt(key, 1) : KeySpace.memberId(KeySpace.getInt(key, 1), key[5] & 0xFF);
        if (p == null || !Values.intact(value) || p.keyId() != id
                || p.kind() != (single ? Values.KIND_SINGLE : Values.KIND_MEMBER) && p.kind() != Values.KIND_DECOY) {
            return "key " + KeySpace.name(key) + " holds a value never written to it: " + show(value);
        }
        if (p.kind() == Values.KIND_DECOY) {
            return "key " + KeySpace.name(key) + " holds the decoy that batch " + hex(p.counter())
                    + " put before overwriting it (in-batch order broken)";
        }
        return null;
    }

    private static String describe(int g, int members, byte[][] found) {
        StringBuilder sb = new StringBuilder();
        for (int m = 0; m < members; m++) {
            sb.append(m == 0 ? "" : ", ").append(m).append('=');
            Values.Parsed p = Values.parse(found[m]);
            sb.append(found[m] == null ? "absent" : p == null ? "garbage" : hex(p.counter()));
        }
        return sb.toString();
    }

    /** A value for a report: absent, its header fields, or its first bytes when it is no stress value. */
    static String show(byte[] v) {
        if (v == null) {
            return "absent";
        }
        Values.Parsed p = Values.parse(v);
        if (p == null) {
            return "garbage (" + v.length + " bytes: " + hexBytes(v) + ")";
        }
        return "value{kind=" + (char) p.kind() + " counter=" + hex(p.counter()) + " (" + Counters.describe(p.counter())
                + ") thread=" + p.thread() + " length=" + p.length() + (Values.intact(v) ? "" : " DAMAGED") + "}";
    }

    static String hex(long counter) {
        return "0x" + Long.toHexString(counter);
    }

    private static String hexBytes(byte[] v) {
        StringBuilder sb = new StringBuilder();
        for (byte b : Arrays.copyOf(v, Math.min(v.length, 24))) {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.append(v.length > 24 ? "..." : "").toString();
    }
}
