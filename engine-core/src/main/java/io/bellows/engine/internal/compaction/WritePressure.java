package io.bellows.engine.internal.compaction;

/** How hard a scheme's disk state pushes back on writers. */
public enum WritePressure {
    NONE,
    /** Delay each write group briefly so compaction can catch up. */
    SLOWDOWN,
    /** Stop writes until compaction has reduced the backlog. */
    STOP;

    /** The pressure of a backlog of {@code amount} against its slowdown and stop limits. */
    public static WritePressure of(double amount, double slowdown, double stop) {
        if (amount >= stop) {
            return STOP;
        }
        return amount >= slowdown ? SLOWDOWN : NONE;
    }
}
