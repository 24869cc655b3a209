package io.bellows.stress;

import java.util.Arrays;

/**
 * The state of every key as the last check found it, which the next cycle starts from: per slot the
 * counter, length and thread of its value (length -1 when absent), per group those of the batch its
 * members come from (length -1 when all members are absent). A new store has every key absent.
 */
final class KeyStates {
    final long[] slotCounter;
    final int[] slotLength;
    final int[] slotThread;
    final long[] groupCounter;
    final int[] groupLength;
    final int[] groupThread;

    KeyStates(KeySpace ks) {
        slotCounter = new long[ks.singles()];
        slotLength = new int[ks.singles()];
        slotThread = new int[ks.singles()];
        groupCounter = new long[ks.groups()];
        groupLength = new int[ks.groups()];
        groupThread = new int[ks.groups()];
        Arrays.fill(slotCounter, -1);
        Arrays.fill(slotLength, -1);
        Arrays.fill(groupCounter, -1);
        Arrays.fill(groupLength, -1);
    }

    /** The value slot {@code i} should hold, or null when absent. */
    byte[] slotValue(int i) {
        return slotLength[i] < 0 ? null : Values.make(Values.KIND_SINGLE, slotThread[i], i, slotCounter[i], slotLength[i]);
    }

    String describeSlot(int i) {
        return slotLength[i] < 0 ? "absent" : "value " + Checker.hex(slotCounter[i]) + " (" + Counters.describe(slotCounter[i])
                + ", thread " + slotThread[i] + ", length " + slotLength[i] + ")";
    }

    String describeGroup(int g) {
        return groupLength[g] < 0 ? "absent" : "batch " + Checker.hex(groupCounter[g]) + " (" + Counters.describe(groupCounter[g])
                + ", thread " + groupThread[g] + ", length " + groupLength[g] + ")";
    }

    int present() {
        int n = 0;
        for (int len : slotLength) {
            n += len >= 0 ? 1 : 0;
        }
        for (int len : groupLength) {
            n += len >= 0 ? 1 : 0;
        }
        return n;
    }
}
