package io.bellows.stress;

import io.bellows.engine.CompactionStyle;
import java.util.Properties;
import java.util.Random;

/**
 * What stays fixed for the life of one stressed store: its scheme and the scheme's shape (levels; the
 * trie's depth, table size and hash seed, which a reopen may not change), the key space and the
 * largest value. Everything else is drawn again for every open ({@link OpenConfig}, {@link Workload}).
 */
record StoreShape(CompactionStyle scheme, int numLevels, int trieDepth, int trieBuckets, long trieHashSeed,
        int singles, int groups, int maxMembers, int maxPad) {

    static StoreShape random(CompactionStyle scheme, Random r) {
        return new StoreShape(scheme, 3 + r.nextInt(5), 2 + r.nextInt(4), pickInt(r, 8, 32, 128, 256), r.nextLong(),
                pickInt(r, 1024, 4096, 16384), pickInt(r, 64, 512, 2048), 2 + r.nextInt(KeySpace.MAX_MEMBERS - 1),
                pickInt(r, 256, 4096, 32768));
    }

    KeySpace keySpace() {
        return new KeySpace(singles, groups, maxMembers);
    }

    /** The longest value any run writes. */
    int maxValueLength() {
        return Values.HEADER + maxPad;
    }

    void store(Properties p) {
        p.setProperty("shape.scheme", scheme.name());
        p.setProperty("shape.numLevels", Integer.toString(numLevels));
        p.setProperty("shape.trieDepth", Integer.toString(trieDepth));
        p.setProperty("shape.trieBuckets", Integer.toString(trieBuckets));
        p.setProperty("shape.trieHashSeed", Long.toString(trieHashSeed));
        p.setProperty("shape.singles", Integer.toString(singles));
        p.setProperty("shape.groups", Integer.toString(groups));
        p.setProperty("shape.maxMembers", Integer.toString(maxMembers));
        p.setProperty("shape.maxPad", Integer.toString(maxPad));
    }

    static StoreShape load(Properties p) {
        return new StoreShape(CompactionStyle.valueOf(p.getProperty("shape.scheme")), i(p, "shape.numLevels"),
                i(p, "shape.trieDepth"), i(p, "shape.trieBuckets"), Long.parseLong(p.getProperty("shape.trieHashSeed")),
                i(p, "shape.singles"), i(p, "shape.groups"), i(p, "shape.maxMembers"), i(p, "shape.maxPad"));
    }

    String describe() {
        String s = "scheme=" + scheme + " singles=" + singles + " groups=" + groups + " (2.." + maxMembers
                + " members) maxValue=" + maxValueLength();
        return switch (scheme) {
            case LSM_TRIE -> s + " trie.depth=" + trieDepth + " trie.tableBuckets=" + trieBuckets + " trie.hashSeed="
                    + trieHashSeed;
            default -> s + " numLevels=" + numLevels;
        };
    }

    private static int i(Properties p, String key) {
        return Integer.parseInt(p.getProperty(key));
    }

    @SafeVarargs
    static <T> T pick(Random r, T... choices) {
        return choices[r.nextInt(choices.length)];
    }

    static int pickInt(Random r, int... choices) {
        return choices[r.nextInt(choices.length)];
    }
}
