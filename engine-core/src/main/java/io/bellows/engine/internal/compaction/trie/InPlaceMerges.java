package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.Compaction;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The containers whose pile a running compaction merges in place (a pile merge, or a last-level garbage
 * collection), so that their parent does not push a batch onto them meanwhile.
 *
 * <p>Why such a push must wait: the merged tables record the highest stamp of their inputs, and a batch
 * pushed meanwhile can carry that same stamp (a parent drains a batch in parts, and a batch's tables
 * share their stamp) with lower table numbers when it is written first. The pile would then order the
 * merged, older versions above the batch's newer ones, and the container's next drain, oldest first,
 * could push newer versions of a key below older ones. A child that drains its oldest tables into its
 * own children leaves its pile's newest end alone, so a push onto it runs beside that drain: without
 * that, every push-down below the root would hold the root's back (each container waits for all eight
 * children, and two compaction threads are mostly busy with the levels below).
 *
 * <p>A pick that is never run (the scheduler also picks to ask whether work is left) leaves an entry
 * whose input is not busy, which counts as no merge and is dropped when seen.
 */
final class InPlaceMerges {
    /** Container to one input of the merge picked for it last. */
    private final Map<Long, Long> inputs = new ConcurrentHashMap<>();

    /** Records what {@link TrieScheme#pick} chose for {@code container}. */
    void picked(long container, Compaction c, boolean inPlace) {
        if (inPlace) {
            inputs.put(container, c.inputFiles().get(0).number);
        } else {
            inputs.remove(container);
        }
    }

    /** Whether a compaction merging {@code container}'s pile in place is running. */
    boolean running(long container, Set<Long> busy) {
        Long input = inputs.get(container);
        if (input == null) {
            return false;
        }
        if (busy.contains(input)) {
            return true;
        }
        inputs.remove(container, input);
        return false;
    }
}
