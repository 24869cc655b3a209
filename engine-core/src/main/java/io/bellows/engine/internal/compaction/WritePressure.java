package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.version.Version;

/** How hard a scheme's disk state pushes back on writers. */
public enum WritePressure {
    NONE,
    /** Delay each write group briefly so compaction can catch up. */
    SLOWDOWN,
    /** Stop writes until compaction has reduced the backlog. */
    STOP;

    /**
     * The pressure {@code scheme} puts on writers in {@code v}: the higher of its own {@link CompactionScheme#pressure}
     * and that of its pending compaction bytes against the soft and hard limits (0: no limit).
     */
    public static WritePressure of(CompactionScheme scheme, Version v, long softPendingBytes, long hardPendingBytes) {
        WritePressure own = scheme.pressure(v);
        if (own == STOP || softPendingBytes == 0 && hardPendingBytes == 0) {
            return own;
        }
        return of(own, scheme.pendingCompactionBytes(v), softPendingBytes, hardPendingBytes);
    }

    /** The higher of {@code own} and the pressure of {@code pending} compaction bytes against the limits (0: none). */
    public static WritePressure of(WritePressure own, long pending, long softPendingBytes, long hardPendingBytes) {
        WritePressure bytes = hardPendingBytes > 0 && pending >= hardPendingBytes ? STOP
                : softPendingBytes > 0 && pending >= softPendingBytes ? SLOWDOWN : NONE;
        return bytes.compareTo(own) > 0 ? bytes : own;
    }

    /** The pressure of a backlog of {@code amount} against its slowdown and stop limits. */
    public static WritePressure of(double amount, double slowdown, double stop) {
        if (amount >= stop) {
            return STOP;
        }
        return amount >= slowdown ? SLOWDOWN : NONE;
    }
}
