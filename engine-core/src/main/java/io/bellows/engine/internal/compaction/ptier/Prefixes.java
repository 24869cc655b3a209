package io.bellows.engine.internal.compaction.ptier;

import io.bellows.engine.PtierOptions;
import io.bellows.engine.internal.iter.ExactScratch;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import java.util.Arrays;

/**
 * The key prefixes of PTierDB's split and merge-or-move rules: the first N bytes of a key, or the
 * user's {@link PtierOptions.PrefixExtractor}. Prefixes compare as byte strings, which orders them as
 * their keys are ordered, so a table holds exactly the prefixes between those of its smallest and
 * largest keys. Nothing here allocates.
 */
final class Prefixes {
    private final int fixedLength;
    private final PtierOptions.PrefixExtractor extractor;

    Prefixes(PtierOptions options) {
        fixedLength = options.prefixLength();
        extractor = options.prefixExtractor();
    }

    /** Length of {@code key}'s prefix. */
    int length(byte[] key) {
        if (extractor == null) {
            return Math.min(fixedLength, key.length);
        }
        int n = extractor.prefixLength(key);
        if (n < 0 || n > key.length) {
            throw new IllegalStateException("the PTIER prefix extractor returned " + n + " for a key of " + key.length
                    + " bytes; a prefix length must be between 0 and the key's length");
        }
        return n;
    }

    /**
     * Length of the prefix of the key {@code view} holds. A user's extractor reads a whole array, so it is
     * given the key in {@code scratch} (the caller's: this object is shared by compaction threads).
     */
    int length(Slice view, ExactScratch scratch) {
        if (extractor == null) {
            return Math.min(fixedLength, view.length());
        }
        return length(scratch.of(view));
    }

    boolean same(byte[] a, byte[] b) {
        int la = length(a);
        return la == length(b) && Arrays.equals(a, 0, la, b, 0, la);
    }

    /** Orders the prefixes of {@code a} and {@code b}. */
    int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, length(a), b, 0, length(b));
    }

    /** Whether every key of {@code f} has one prefix (its smallest and largest keys share it). */
    boolean singlePrefix(FileMeta f) {
        return same(f.smallestKey, f.largestKey);
    }

    /** Whether {@code f} may hold keys with the prefix of {@code key}. */
    boolean holdsPrefixOf(FileMeta f, byte[] key) {
        return compare(f.smallestKey, key) <= 0 && compare(key, f.largestKey) <= 0;
    }
}
