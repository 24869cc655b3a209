package io.bellows.engine.internal.compaction.ptier;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.PtierOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.DataDriven;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of PTIER's decisions (Pebble's {@code compaction_picker_*} style): a version, a trigger
 * and the expected compaction, in src/test/resources/ptier/*.txt. Sizes there are in KiB; keys are
 * ASCII. Commands:
 * <ul>
 *   <li>{@code define [prefix=N] [l0=N] [base=KiB] [mult=N] [levels=N] [ts=KiB] [reads=N]}, then lines
 *       {@code L<level>: <number>:<smallest>-<largest>[/<KiB>] ...}: a new store with those tables,
 *       each defined table newer than the ones before it; prints the version;
 *   <li>{@code pick [busy=n,m]}: the automatic compaction picked, or {@code none};
 *   <li>{@code manual <level> [from] [to]}: compactRange's pick at a level;
 *   <li>{@code read <number> <count>}: that many gets probe the table; prints when one asks for a compaction;
 *   <li>{@code get <key>}: the candidate groups a get probes, one group per {@code |};
 *   <li>{@code add}, then table lines as for {@code define}: adds tables to the current version, newer
 *       than every table before, keeping the scheme's state; prints the version;
 *   <li>{@code apply <number>...}: those tables move one level down, as a compaction that moved them
 *       would leave the version; prints the version;
 *   <li>{@code split ts=KiB [prefix=N]}, then lines {@code <key> <KiB>}: the output tables of a merge
 *       writing those entries.
 * </ul>
 */
class PtierPickerTest {
    private PtierScheme scheme;
    private VersionSet versions;
    private Version current;
    private final Map<Long, FileMeta> byNumber = new HashMap<>();
    private long seq;

    @Test
    void mergeAndMove() throws Exception {
        assertTrue(DataDriven.run("/ptier/merge_and_move.txt", this::run) > 0);
    }

    @Test
    void mergeAndSplit() throws Exception {
        assertTrue(DataDriven.run("/ptier/merge_and_split.txt", this::run) > 0);
    }

    @Test
    void intraLevelMerge() throws Exception {
        assertTrue(DataDriven.run("/ptier/intra_level_merge.txt", this::run) > 0);
    }

    @Test
    void reads() throws Exception {
        assertTrue(DataDriven.run("/ptier/reads.txt", this::run) > 0);
    }

    private String run(DataDriven.Case c) throws Exception {
        return switch (c.cmd()) {
            case "define" -> define(c);
            case "pick" -> describe(scheme.pick(current, busy(c.arg("busy", ""))));
            case "manual" -> describe(scheme.pickManual(current, Integer.parseInt(c.args().get(0)),
                    c.args().size() > 1 ? bytes(c.args().get(1)) : null, c.args().size() > 2 ? bytes(c.args().get(2)) : null));
            case "read" -> read(byNumber.get(Long.parseLong(c.args().get(0))), Integer.parseInt(c.args().get(1)));
            case "get" -> get(bytes(c.args().get(0)));
            case "apply" -> apply(c.args());
            case "add" -> add(c.input());
            case "split" -> split(c);
            default -> throw new IllegalArgumentException("unknown command " + c.cmd());
        };
    }

    private static PtierOptions ptier(DataDriven.Case c) {
        return PtierOptions.builder().prefixLength(Integer.parseInt(c.arg("prefix", "1")))
                .splitThreshold(Long.parseLong(c.arg("ts", "64")) << 10)
                .intraLevelMergeReads(Integer.parseInt(c.arg("reads", "0"))).build();
    }

    private String define(DataDriven.Case c) throws Exception {
        int levels = Integer.parseInt(c.arg("levels", "4"));
        int l0 = Integer.parseInt(c.arg("l0", "4"));
        EngineOptions o = EngineOptions.builder().numLevels(levels).l0Triggers(l0, Math.max(l0, 20), Math.max(l0, 36))
                .maxBytesForLevelBase(Long.parseLong(c.arg("base", "1024")) << 10)
                .levelSizeMultiplier(Integer.parseInt(c.arg("mult", "4"))).compaction(ptier(c)).build();
        scheme = new PtierScheme(o);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, levels, scheme, () -> {});
        versions.create("PTIER");
        byNumber.clear();
        seq = 1;
        return add(c.input());
    }

    private String add(List<String> lines) throws Exception {
        VersionEdit edit = new VersionEdit();
        for (String line : lines) {
            int colon = line.indexOf(':');
            int level = Integer.parseInt(line.substring(1, colon));
            for (String t : line.substring(colon + 1).trim().split("\\s+")) {
                String[] numAndRange = t.split(":");
                String[] rangeAndSize = numAndRange[1].split("/");
                String[] range = rangeAndSize[0].split("-");
                long size = rangeAndSize.length > 1 ? Long.parseLong(rangeAndSize[1]) << 10 : 1 << 10;
                long number = Long.parseLong(numAndRange[0]);
                long allocated;
                do {
                    allocated = versions.newFileNumber();
                } while (allocated < number);
                FileMeta f = new FileMeta(number, size, bytes(range[0]), seq + 9, bytes(range[1]), seq, 10, seq + 9);
                seq += 10;
                byNumber.put(number, f);
                edit.addFile(level, f);
            }
        }
        versions.logAndApply(edit);
        current = versions.current();
        return describe(current);
    }

    private static String describe(Version v) {
        StringBuilder sb = new StringBuilder();
        for (int level = 0; level < v.numLevels(); level++) {
            if (!v.files(level).isEmpty()) {
                sb.append('L').append(level).append(':');
                for (FileMeta f : v.files(level)) {
                    sb.append(' ').append(f.number).append(':').append(str(f.smallestKey)).append('-').append(str(f.largestKey));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private String apply(List<String> numbers) throws Exception {
        VersionEdit edit = new VersionEdit();
        for (String n : numbers) {
            FileMeta f = byNumber.get(Long.parseLong(n));
            for (int level = 0; level < current.numLevels(); level++) {
                if (current.files(level).contains(f)) {
                    edit.deleteFile(level, f.number).addFile(level + 1, f);
                }
            }
        }
        versions.logAndApply(edit);
        current = versions.current();
        return describe(current);
    }

    private static Set<Long> busy(String list) {
        Set<Long> out = new HashSet<>();
        for (String s : list.split(",")) {
            if (!s.isEmpty()) {
                out.add(Long.parseLong(s));
            }
        }
        return out;
    }

    /** {@code merge [n m] [k] move [j] -> L<out> (reason)}, groups and moves in key order. */
    private static String describe(Compaction c) {
        if (c == null) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        if (!c.mergeGroups().isEmpty()) {
            sb.append("merge");
            for (List<Compaction.Input> g : c.mergeGroups()) {
                sb.append(" [").append(numbers(g)).append(']');
            }
            sb.append(' ');
        }
        if (!c.moves().isEmpty()) {
            sb.append("move [").append(numbers(c.moves())).append("] ");
        }
        return sb.append("L").append(c.inputs().get(0).level()).append(" -> L").append(c.outputLevel()).toString();
    }

    private static String numbers(List<Compaction.Input> inputs) {
        List<FileMeta> files = new ArrayList<>();
        for (Compaction.Input in : inputs) {
            files.add(in.file());
        }
        files.sort(FileMeta.BY_SMALLEST_KEY);
        StringBuilder sb = new StringBuilder();
        for (FileMeta f : files) {
            sb.append(sb.length() == 0 ? "" : " ").append(f.number);
        }
        return sb.toString();
    }

    private String read(FileMeta f, int count) {
        for (int i = 1; i <= count; i++) {
            if (scheme.onTableRead(current, f)) {
                return "compaction due at read " + i;
            }
        }
        return "not due";
    }

    private String get(byte[] key) {
        List<FileMeta> out = new ArrayList<>();
        IntArrayList ends = new IntArrayList();
        scheme.candidateGroups(current, key, out, ends);
        StringBuilder sb = new StringBuilder();
        int start = 0;
        for (int g = 0; g < ends.size(); g++) {
            List<FileMeta> group = new ArrayList<>(out.subList(start, ends.get(g)));
            group.sort(FileMeta.BY_SMALLEST_KEY);
            sb.append(g == 0 ? "" : " | ");
            for (int i = 0; i < group.size(); i++) {
                sb.append(i == 0 ? "" : " ").append(group.get(i).number);
            }
            start = ends.get(g);
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    /** Feeds the entries through the splitter as TableOutputs does, with the remaining-input estimate. */
    private static String split(DataDriven.Case c) {
        PrefixSplitter splitter = new PrefixSplitter(new Prefixes(ptier(c)), Long.parseLong(c.arg("ts", "64")) << 10);
        long total = 0;
        for (String line : c.input()) {
            total += Long.parseLong(line.split("\\s+")[1]) << 10;
        }
        StringBuilder sb = new StringBuilder();
        long current = -1;
        long written = 0;
        for (String line : c.input()) {
            String[] kv = line.split("\\s+");
            long size = Long.parseLong(kv[1]) << 10;
            splitter.inputRemaining(total - written);
            if (current >= 0 && splitter.splitBefore(bytes(kv[0]), current)) {
                sb.append("]\n");
                current = -1;
            }
            if (current < 0) {
                sb.append('[').append(kv[0]);
                splitter.tableStarted(bytes(kv[0]));
                current = 0;
            } else {
                sb.append(' ').append(kv[0]);
            }
            current += size;
            written += size;
        }
        return sb.append(']').toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }
}
