package io.bellows.engine.internal.compaction.leveled;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionPriority;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.DataDriven;
import io.bellows.engine.internal.compaction.LevelTargets;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of LEVELED's level shape and picks (Pebble's {@code compaction_picker_*} style): a version,
 * a trigger and the expected decision, in src/test/resources/leveled/*.txt. Sizes there are in KiB; keys
 * are ASCII. Commands:
 * <ul>
 *   <li>{@code define [dynamic=true|false] [priority=min_overlapping_ratio|round_robin] [l0=N] [base=KiB]
 *       [mult=N] [levels=N]}, then lines
 *       {@code L<level>: <number>:<smallest>-<largest>[/<KiB>] ...}: a new store with those tables; prints
 *       the version;
 *   <li>{@code targets}: the base level, then each level's size, target and score (levels above the base
 *       have no target), and the estimated pending compaction bytes;
 *   <li>{@code pick [busy=n,m]}: the automatic compaction picked, or {@code none};
 *   <li>{@code manual <level>}: compactRange's pick at a level, over all keys;
 *   <li>{@code cursor <level> <key>}: sets a level's round-robin cursor, as a compaction of tables ending
 *       at that key would;
 *   <li>{@code pressure soft=KiB hard=KiB}: the pending compaction bytes and the write pressure with those
 *       limits (0: none), L0 triggers as defined ({@code l0=N}: N / 20 / 36).
 * </ul>
 */
class LeveledPickerTest {
    private EngineOptions options;
    private LevelTargets targets;
    private LeveledScheme scheme;
    private VersionSet versions;
    private Version current;
    private long seq;

    @Test
    void dynamicTargets() throws Exception {
        assertTrue(DataDriven.run("/leveled/dynamic_targets.txt", this::run) > 0);
    }

    @Test
    void basePicks() throws Exception {
        assertTrue(DataDriven.run("/leveled/base_level_picks.txt", this::run) > 0);
    }

    @Test
    void priorityPicks() throws Exception {
        assertTrue(DataDriven.run("/leveled/priority_picks.txt", this::run) > 0);
    }

    @Test
    void pendingBytesStalls() throws Exception {
        assertTrue(DataDriven.run("/leveled/pending_bytes_stalls.txt", this::run) > 0);
    }

    private String run(DataDriven.Case c) throws Exception {
        return switch (c.cmd()) {
            case "define" -> define(c);
            case "targets" -> targets();
            case "pick" -> describe(scheme.pick(current, busy(c.arg("busy", ""))));
            case "manual" -> describe(scheme.pickManual(current, Integer.parseInt(c.args().get(0)), null, null));
            case "pressure" -> pressure(c);
            case "cursor" -> cursor(c);
            default -> throw new IllegalArgumentException("unknown command " + c.cmd());
        };
    }

    private String define(DataDriven.Case c) throws Exception {
        int levels = Integer.parseInt(c.arg("levels", "7"));
        int l0 = Integer.parseInt(c.arg("l0", "4"));
        boolean dynamic = Boolean.parseBoolean(c.arg("dynamic", "true"));
        options = EngineOptions.builder().numLevels(levels).l0Triggers(l0, Math.max(l0, 20), Math.max(l0, 36))
                .maxBytesForLevelBase(Long.parseLong(c.arg("base", "1024")) << 10)
                .levelSizeMultiplier(Integer.parseInt(c.arg("mult", "10"))).targetFileSize(64 << 10)
                .compaction(LeveledOptions.builder().dynamicLevelBytes(dynamic).priority(CompactionPriority.valueOf(
                        c.arg("priority", "min_overlapping_ratio").toUpperCase(Locale.ROOT))).build()).build();
        scheme = new LeveledScheme(options);
        targets = new LevelTargets(options, dynamic);
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(Path.of("/db"));
        versions = new VersionSet(Path.of("/db"), fs, levels, scheme, () -> {});
        versions.create("LEVELED");
        seq = 1;
        VersionEdit edit = new VersionEdit();
        for (String line : c.input()) {
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
                edit.addFile(level, new FileMeta(number, size, bytes(range[0]), seq + 9, bytes(range[1]), seq, 10, seq + 9));
                seq += 10;
            }
        }
        versions.logAndApply(edit);
        current = versions.current();
        StringBuilder sb = new StringBuilder();
        for (int level = 0; level < current.numLevels(); level++) {
            if (!current.files(level).isEmpty()) {
                sb.append('L').append(level).append(':');
                for (FileMeta f : current.files(level)) {
                    sb.append(' ').append(f.number).append(':').append(str(f.smallestKey)).append('-')
                            .append(str(f.largestKey));
                }
                sb.append('\n');
            }
        }
        return sb.length() == 0 ? "empty" : sb.toString();
    }

    private String cursor(DataDriven.Case c) {
        int level = Integer.parseInt(c.args().get(0));
        byte[] key = bytes(c.args().get(1));
        byte[] rec = new byte[Coding.varLongSize(level) + key.length];
        System.arraycopy(key, 0, rec, Coding.putVarLong(rec, 0, level), key.length);
        scheme.apply(rec);
        return "ok";
    }

    private String targets() {
        LevelTargets.Shape shape = targets.shape(current);
        StringBuilder sb = new StringBuilder("base L").append(shape.baseLevel()).append('\n');
        sb.append(String.format("L0: %d tables score %.2f%n", current.files(0).size(), shape.score(0)));
        for (int level = 1; level < current.numLevels(); level++) {
            long max = shape.maxBytes(level);
            sb.append('L').append(level).append(": ").append(current.levelBytes(level) >> 10).append(" KiB");
            if (max == Long.MAX_VALUE) {
                sb.append(" no target\n");
            } else if (level == current.numLevels() - 1) {
                sb.append(" target ").append(max >> 10).append('\n');
            } else {
                sb.append(" target ").append(max >> 10).append(String.format(" score %.2f%n", shape.score(level)));
            }
        }
        return sb.append("pending ").append(shape.pendingCompactionBytes() >> 10).append(" KiB").toString();
    }

    private String pressure(DataDriven.Case c) {
        long soft = Long.parseLong(c.arg("soft", "0")) << 10;
        long hard = Long.parseLong(c.arg("hard", "0")) << 10;
        return "pending " + (scheme.pendingCompactionBytes(current) >> 10) + " KiB, L0 " + scheme.pressure(current)
                + ", writes " + WritePressure.of(scheme, current, soft, hard);
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

    /** {@code [n m] L<in> -> L<out> [trivial]}, inputs in the compaction's order. */
    private static String describe(Compaction c) {
        if (c == null) {
            return "none";
        }
        List<String> numbers = new ArrayList<>();
        for (Compaction.Input in : c.inputs()) {
            numbers.add(Long.toString(in.file().number));
        }
        return "[" + String.join(" ", numbers) + "] L" + c.inputs().get(0).level() + " -> L" + c.outputLevel()
                + (c.isTrivialMove() ? " trivial" : "");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }
}
