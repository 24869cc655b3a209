package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * One unit of compaction work chosen by a scheme: input tables (each with its level), the level and
 * placement the output goes to, and the scheme's rules for cutting output tables and for dropping
 * tombstones. The generic {@link CompactionJob} executes it; a trivial move just re-files the input.
 */
public final class Compaction {
    /** A table taken as input, with the level it is removed from. */
    public record Input(int level, FileMeta file) {}

    /** Decides where output tables are cut. Cuts only happen between user keys. */
    public interface Splitter {
        /** Whether to start a new output table before {@code nextKey}, given the current table's size. */
        boolean splitBefore(byte[] nextKey, long currentTableBytes);

        /** Called with the first key of each new output table (which {@link #splitBefore} never sees). */
        default void tableStarted(byte[] firstKey) {}
    }

    /** Whether no table below the output level may hold {@code key}, so a tombstone of it can go. */
    public interface BaseLevelTest {
        boolean isBaseLevelFor(byte[] key);
    }

    private final List<Input> inputs;
    private final int outputLevel;
    private final boolean trivialMove;
    private final Splitter splitter;
    private final BaseLevelTest baseLevelTest;
    private final String reason;

    public Compaction(List<Input> inputs, int outputLevel, boolean trivialMove, Splitter splitter,
            BaseLevelTest baseLevelTest, String reason) {
        this.inputs = List.copyOf(inputs);
        this.outputLevel = outputLevel;
        this.trivialMove = trivialMove;
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

    public int outputLevel() {
        return outputLevel;
    }

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
        for (Input i : inputs) {
            sb.append("L").append(i.level()).append('#').append(i.file().number).append(' ');
        }
        return sb.append("-> L").append(outputLevel).append(trivialMove ? " (move)" : "").toString();
    }
}
