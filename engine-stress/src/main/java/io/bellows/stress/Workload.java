package io.bellows.stress;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Durability;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;

/**
 * What the child's threads do in one run, drawn per run: the thread count, the weights of the
 * operations, the durability mix, value sizes and how concentrated the keys are. Flushes and range
 * compactions are per-operation probabilities, kept small because each one blocks its thread.
 */
record Workload(int threads, double put, double delete, double batch, double get, double scan, double snapshot,
        double flush, double compact, double sync, double async, double none, int maxPad, double largeValues,
        double hotFraction) {

    static Workload random(StoreShape shape, int maxThreads, Random r) {
        double sync = r.nextDouble() * 3;
        double async = r.nextDouble() * 6;
        double none = r.nextDouble() * 2;
        int mode = r.nextInt(20);
        if (mode < 3) {
            async = 0;
            none = 0;
            sync = 1;
        } else if (mode < 5) {
            sync = 0;
            none = 0;
            async = 1;
        } else if (mode == 5) {
            sync = 0;
            async = 0;
            none = 1;
        }
        boolean ordered = shape.scheme() != CompactionStyle.LSM_TRIE;
        return new Workload(1 + r.nextInt(maxThreads), 1 + r.nextDouble() * 9, r.nextDouble() * 4,
                r.nextDouble() * 6, r.nextDouble() * 6, ordered ? r.nextDouble() : 0, r.nextDouble() * 0.5,
                r.nextBoolean() ? 0 : 2e-5 + r.nextDouble() * 5e-4, r.nextBoolean() ? 0 : 1e-5 + r.nextDouble() * 2e-4,
                sync, async, none, Math.min(shape.maxPad(), StoreShape.pickInt(r, 0, 64, 1024, shape.maxPad())),
                r.nextDouble() * 0.3,
                StoreShape.pick(r, 1.0, 1.0, 0.1, 0.01));
    }

    /** The durability of the next write, by the mix's weights. */
    Durability durability(Random r) {
        double x = r.nextDouble() * (sync + async + none);
        return x < sync ? Durability.SYNC : x < sync + async ? Durability.ASYNC : Durability.NONE;
    }

    /** The length of the next value: mostly small, a share {@link #largeValues} up to {@link #maxPad}. */
    int valueLength(Random r) {
        int pad = r.nextDouble() < largeValues ? r.nextInt(maxPad + 1) : r.nextInt(Math.min(maxPad, 64) + 1);
        return Values.HEADER + pad;
    }

    void store(Properties p) {
        p.setProperty("load", describe());
    }

    static Workload load(Properties p) {
        String[] f = p.getProperty("load").split(" ");
        double[] v = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            v[i] = Double.parseDouble(f[i].substring(f[i].indexOf('=') + 1));
        }
        return new Workload((int) v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], (int) v[12],
                v[13], v[14]);
    }

    /** Every field, {@code name=value} separated by spaces (also the form {@link #load} reads). */
    String describe() {
        return String.format(Locale.ROOT, "threads=%d put=%.3f delete=%.3f batch=%.3f get=%.3f scan=%.3f snapshot=%.3f"
                + " flush=%.6f compact=%.6f sync=%.3f async=%.3f none=%.3f maxPad=%d largeValues=%.3f hotFraction=%.3f",
                threads, put, delete, batch, get, scan, snapshot, flush, compact, sync, async, none, maxPad, largeValues,
                hotFraction);
    }
}
