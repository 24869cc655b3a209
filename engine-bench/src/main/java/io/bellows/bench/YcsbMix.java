package io.bellows.bench;

/**
 * The operation mix of a YCSB core workload (workloads/workloada to workloadf), as fractions that sum
 * to 1, and the request distribution it names. Reads and read-modify-writes count found / not found.
 */
record YcsbMix(double read, double update, double insert, double scan, double readModifyWrite,
        KeyDistribution distribution) {
    static final YcsbMix A = new YcsbMix(0.5, 0.5, 0, 0, 0, KeyDistribution.ZIPFIAN);
    static final YcsbMix B = new YcsbMix(0.95, 0.05, 0, 0, 0, KeyDistribution.ZIPFIAN);
    static final YcsbMix C = new YcsbMix(1.0, 0, 0, 0, 0, KeyDistribution.ZIPFIAN);
    static final YcsbMix D = new YcsbMix(0.95, 0, 0.05, 0, 0, KeyDistribution.LATEST);
    static final YcsbMix E = new YcsbMix(0, 0, 0.05, 0.95, 0, KeyDistribution.ZIPFIAN);
    static final YcsbMix F = new YcsbMix(0.5, 0, 0, 0, 0.5, KeyDistribution.ZIPFIAN);

    /** The operation for a uniform draw {@code u} in [0, 1). */
    YcsbOp pick(double u) {
        double edge = read;
        if (u < edge) {
            return YcsbOp.READ;
        }
        edge += update;
        if (u < edge) {
            return YcsbOp.UPDATE;
        }
        edge += insert;
        if (u < edge) {
            return YcsbOp.INSERT;
        }
        edge += scan;
        if (u < edge) {
            return YcsbOp.SCAN;
        }
        return readModifyWrite > 0 ? YcsbOp.READ_MODIFY_WRITE : YcsbOp.READ;
    }

    enum YcsbOp {
        READ,
        UPDATE,
        INSERT,
        SCAN,
        READ_MODIFY_WRITE
    }
}
