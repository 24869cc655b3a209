package io.bellows.bench;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/** How workloads pick existing keys (--distribution, --request_distribution). */
enum KeyDistribution {
    UNIFORM,
    /** YCSB's scrambled zipfian, theta 0.99: a few hot keys scattered over the key space. */
    ZIPFIAN,
    /** YCSB's latest: zipfian counted back from the newest key, following inserts. */
    LATEST,
    /** YCSB's hotspot: a share of the operations on the lowest-numbered share of the keys (--hotspot). */
    HOTSPOT;

    /**
     * A chooser over [0, num) for uniform, zipfian and hotspot (with {@code hotspot}'s fractions); over
     * [0, records) for latest, where records grows as workloads insert.
     */
    KeyChooser chooser(long num, SplittableRandom random, LongSupplier records, Hotspot hotspot) {
        switch (this) {
            case UNIFORM:
                return new UniformKeys(num, random);
            case ZIPFIAN:
                return new ScrambledZipfianKeys(num, random);
            case HOTSPOT:
                return new HotspotKeys(num, hotspot.setFraction(), hotspot.opFraction(), random);
            default:
                return new LatestKeys(records, random);
        }
    }

    KeyChooser chooser(long num, SplittableRandom random) {
        return chooser(num, random, () -> num, Hotspot.YCSB);
    }

    /** The hot set of {@link #HOTSPOT}: its share of the keys and of the operations. */
    record Hotspot(double setFraction, double opFraction) {
        /** YCSB's defaults (hotspotdatafraction 0.2, hotspotopnfraction 0.8). */
        static final Hotspot YCSB = new Hotspot(0.2, 0.8);

        Hotspot {
            if (!(setFraction > 0 && setFraction <= 1 && opFraction > 0 && opFraction <= 1)) {
                throw new IllegalArgumentException("the hot set takes two fractions in (0, 1], got " + setFraction + "/"
                        + opFraction);
            }
        }

        /** {@code KEYS/OPS}, e.g. {@code 0.01/0.99}. */
        static Hotspot parse(String s) {
            String[] p = s.split("/");
            if (p.length != 2) {
                throw new IllegalArgumentException("takes KEYS/OPS, e.g. 0.01/0.99; got '" + s + "'");
            }
            try {
                return new Hotspot(Double.parseDouble(p[0].trim()), Double.parseDouble(p[1].trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("takes KEYS/OPS, e.g. 0.01/0.99; got '" + s + "'", e);
            }
        }
    }

    String flagName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
