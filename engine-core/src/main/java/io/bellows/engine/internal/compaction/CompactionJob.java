package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Executes a {@link Compaction}: merges its inputs, keeps the versions a {@link VersionPruner} says a
 * reader may still need, writes the survivors through {@link TableOutputs} and describes the result
 * as a {@link VersionEdit}. Shared by the SSTable schemes; the scheme only chose the inputs and the rules.
 */
public final class CompactionJob {
    private CompactionJob() {}

    /**
     * Runs {@code c}. On failure the partial outputs are deleted and the exception propagates; the
     * inputs are untouched, so nothing is lost.
     */
    public static VersionEdit run(Compaction c, TableSource tables, long[] snapshots, TableSink outputs)
            throws IOException {
        VersionEdit edit = new VersionEdit();
        for (Compaction.Input in : c.inputs()) {
            edit.deleteFile(in.level(), in.file().number);
        }
        for (Compaction.Input in : c.moves()) {
            edit.addFile(c.outputLevel(), in.file());
        }
        if (c.isTrivialMove()) {
            return edit;
        }
        try {
            boolean first = true;
            for (List<Compaction.Input> group : c.mergeGroups()) {
                if (!first) {
                    outputs.endTable();
                }
                first = false;
                merge(group, c.splitter(), tables, new VersionPruner(snapshots, c.baseLevelTest()), outputs);
            }
            for (FileMeta f : outputs.finish()) {
                edit.addFile(c.outputLevel(), f);
            }
        } catch (IOException | RuntimeException e) {
            outputs.abandon();
            throw e;
        }
        return edit;
    }

    /**
     * Merges one group's inputs into {@code outputs}, telling {@code splitter} (if any) before each entry
     * how much of the group is left, estimated from the entries read so far.
     */
    private static void merge(List<Compaction.Input> group, Compaction.Splitter splitter, TableSource tables,
            VersionPruner pruner, TableSink outputs) throws IOException {
        long groupBytes = 0;
        long groupEntries = 0;
        for (Compaction.Input in : group) {
            groupBytes += in.file().fileSize;
            groupEntries += in.file().entries;
        }
        long read = 0;
        try (MergingIterator it = new MergingIterator(sources(group, tables))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (splitter != null && groupEntries > 0) {
                    splitter.inputRemaining((long) (groupBytes * (1 - (double) Math.min(read, groupEntries) / groupEntries)));
                }
                read++;
                // In place: the merge hands out views of its inputs' blocks, and nothing here keeps them.
                Slice key = it.keySlice();
                long seq = it.sequence();
                int kind = it.kind();
                if (pruner.keep(key, seq, kind)) {
                    outputs.add(key, seq, kind, it.valueSlice());
                }
            }
        }
    }

    /**
     * One iterator per L0 table (they overlap) and, per deeper level, one concatenating iterator per
     * run of disjoint tables: one run in a level of disjoint tables, several where a scheme lets the
     * tables of a level overlap (FLSM guards, tiers).
     */
    private static List<InternalIterator> sources(List<Compaction.Input> inputs, TableSource tables)
            throws IOException {
        Map<Integer, List<FileMeta>> byLevel = new TreeMap<>();
        List<FileMeta> l0 = new ArrayList<>();
        for (Compaction.Input in : inputs) {
            if (in.level() == 0) {
                l0.add(in.file());
            } else {
                byLevel.computeIfAbsent(in.level(), l -> new ArrayList<>()).add(in.file());
            }
        }
        List<InternalIterator> out = new ArrayList<>();
        tables.addIterators(l0, false, out);
        for (List<FileMeta> files : byLevel.values()) {
            for (List<FileMeta> run : disjointRuns(files)) {
                out.add(new LevelIterator(run, tables, false));
            }
        }
        return out;
    }

    /** Splits tables into as few runs of disjoint tables as key order allows (first fit by smallest key). */
    public static List<List<FileMeta>> disjointRuns(List<FileMeta> files) {
        files.sort(FileMeta::compareSmallest);
        List<List<FileMeta>> runs = new ArrayList<>();
        for (FileMeta f : files) {
            List<FileMeta> fit = null;
            for (List<FileMeta> run : runs) {
                FileMeta last = run.get(run.size() - 1);
                if (InternalKeys.compare(last.largestKey, last.largestSeq, f.smallestKey, f.smallestSeq) < 0) {
                    fit = run;
                    break;
                }
            }
            if (fit == null) {
                fit = new ArrayList<>();
                runs.add(fit);
            }
            fit.add(f);
        }
        return runs;
    }
}
