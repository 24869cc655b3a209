package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * One unit of compaction work chosen by a scheme: input tables (each with its level), the level and
 * placement the output goes to, and the scheme's rules for cutting output tables and for dropping
 * tombstones. The generic {@link CompactionJob} executes it; a trivial move just re-files the input.
 * A compaction may also move some inputs and merge others ({@link #Compaction(List, List, int,
 * Splitter, BaseLevelTest, String)}): each merge group is merged into output tables of its own, and
 * the moved tables are re-filed at the output level beside them.
 */
public final class Compaction {
    /** A table taken as input, with the level it is removed from. */
    public record Input(int level, FileMeta file) {}

    /** Decides where output tables are cut. Cuts only happen between user keys. */
    public interface Splitter {
        /** Whether to start a new output table before {@code nextKey}, given the current table's size. */
        boolean splitBefore(byte[] nextKey, long currentTableBytes);

        /**
         * As {@link #splitBefore(byte[], long)} for a key view valid during the call; this default copies
         * the key out, a splitter on a hot path compares in place.
         */
        default boolean splitBefore(Slice nextKey, long currentTableBytes) {
            return splitBefore(nextKey.copy(), currentTableBytes);
        }

        /** Called with the first key of each new output table (which {@link #splitBefore} never sees). */
        default void tableStarted(byte[] firstKey) {}

        /**
         * Called before each entry is written with an estimate of the input bytes of its merge group not
         * yet written (this entry's included), for a splitter that weighs what is left (PTierDB's split).
         */
        default void inputRemaining(long bytes) {}
    }

    /** Whether no table below the output level may hold {@code key}, so a tombstone of it can go. */
    public interface BaseLevelTest {
        boolean isBaseLevelFor(byte[] key);

        /**
         * As {@link #isBaseLevelFor(byte[])} for a key view valid during the call; this default copies the
         * key out, a test that needs no key (or compares in place) answers without the copy.
         */
        default boolean isBaseLevelFor(Slice key) {
            return isBaseLevelFor(key.copy());
        }
    }

    private final List<Input> inputs;
    private final List<Input> moves;
    private final List<List<Input>> mergeGroups;
    private final int outputLevel;
    private final boolean trivialMove;
    private final Splitter splitter;
    private final BaseLevelTest baseLevelTest;
    private final String reason;

    public Compaction(List<Input> inputs, int outputLevel, boolean trivialMove, Splitter splitter,
            BaseLevelTest baseLevelTest, String reason) {
        this(trivialMove ? inputs : List.of(), trivialMove || inputs.isEmpty() ? List.of() : List.of(inputs),
                outputLevel, splitter, baseLevelTest, reason);
    }

    /**
     * Moves {@code moves} to {@code outputLevel} as they are and merges each of {@code mergeGroups} into
     * new tables there, cut by {@code splitter} and never spanning two groups. {@code baseLevelTest}
     * applies to every group: a scheme with several groups makes it exclude only tables no group's key
     * may be in.
     */
    public Compaction(List<Input> moves, List<List<Input>> mergeGroups, int outputLevel, Splitter splitter,
            BaseLevelTest baseLevelTest, String reason) {
        this.moves = List.copyOf(moves);
        List<List<Input>> groups = new ArrayList<>(mergeGroups.size());
        List<Input> all = new ArrayList<>(moves);
        for (List<Input> g : mergeGroups) {
            if (g.isEmpty()) {
                throw new IllegalArgumentException("empty merge group");
            }
            groups.add(List.copyOf(g));
            all.addAll(g);
        }
        this.mergeGroups = List.copyOf(groups);
        this.inputs = List.copyOf(all);
        this.trivialMove = groups.isEmpty();
        this.outputLevel = outputLevel;
        this.splitter = splitter;
        this.baseLevelTest = baseLevelTest;
        this.reason = reason;
    }

    public List<Input> inputs() {
        return inputs;
    }

    public List<FileMeta> inputFiles() {
        List<FileMeta> out = new ArrayList<>(inputs.size());
        for (Input i : inputs) {
            out.add(i.file());
        }
        return out;
    }

    /** Inputs re-filed at the output level unchanged (every input of a trivial move). */
    public List<Input> moves() {
        return moves;
    }

    /** Groups of inputs, each merged into output tables of its own; empty for a trivial move. */
    public List<List<Input>> mergeGroups() {
        return mergeGroups;
    }

    /** Why the scheme picked it (its own words: "size", "l0", "manual", ...). */
    public String reason() {
        return reason;
    }

    public int outputLevel() {
        return outputLevel;
    }

    /** Whether nothing is merged: every input is moved. */
    public boolean isTrivialMove() {
        return trivialMove;
    }

    public Splitter splitter() {
        return splitter;
    }

    public BaseLevelTest baseLevelTest() {
        return baseLevelTest;
    }

    public long inputBytes() {
        long sum = 0;
        for (Input i : inputs) {
            sum += i.file().fileSize;
        }
        return sum;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(reason).append(": ");
        if (trivialMove || moves.isEmpty()) {
            for (Input i : inputs) {
                sb.append("L").append(i.level()).append('#').append(i.file().number).append(' ');
            }
            return sb.append("-> L").append(outputLevel).append(trivialMove ? " (move)" : "").toString();
        }
        for (List<Input> g : mergeGroups) {
            sb.append("merge[");
            for (Input i : g) {
                sb.append("L").append(i.level()).append('#').append(i.file().number).append(' ');
            }
            sb.setLength(sb.length() - 1);
            sb.append("] ");
        }
        sb.append("move[");
        for (Input i : moves) {
            sb.append("L").append(i.level()).append('#').append(i.file().number).append(' ');
        }
        sb.setLength(sb.length() - 1);
        return sb.append("] -> L").append(outputLevel).toString();
    }
}
