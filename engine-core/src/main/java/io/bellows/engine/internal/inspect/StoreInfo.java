package io.bellows.engine.internal.inspect;

import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a closed store holds, from its manifest and directory: the scheme, each level's tables, bytes
 * and placements (FLSM guards, LSM_TRIE containers, PTIER tiers), the live WAL files, the table formats
 * and versions in use, and RocksDB's space-amplification estimate.
 */
public final class StoreInfo {
    /** One level of the current version; {@code placements} counts distinct guards or containers. */
    public record Level(int level, int tables, long bytes, long entries, int placements) {}

    public record Log(String file, long bytes) {}

    /**
     * @param spaceAmplification live table bytes over the deepest level's bytes (RocksDB's estimate,
     *     exact once the deepest level holds every live entry once), or NaN without tables
     * @param formats table files by format and version, e.g. "sstable v2" -> 12
     */
    public record Info(String dir, String scheme, String manifest, long logNumber, long nextFileNumber,
            long lastSequence, List<Level> levels, List<Log> logs, long tableBytes, double spaceAmplification,
            Map<String, Integer> formats, int edits) {}

    private StoreInfo() {}

    public static Info of(FileSystem fs, Path dir) throws IOException {
        ManifestView m = ManifestView.read(fs, dir);
        int deepest = m.deepestLevel();
        long[] tables = new long[deepest + 1];
        long[] bytes = new long[deepest + 1];
        long[] entries = new long[deepest + 1];
        List<Map<Long, Boolean>> placements = new ArrayList<>();
        for (int l = 0; l <= deepest; l++) {
            placements.add(new TreeMap<>());
        }
        Map<String, Integer> formats = new TreeMap<>();
        long total = 0;
        for (ManifestView.LiveTable t : m.tables().values()) {
            tables[t.level()]++;
            bytes[t.level()] += t.meta().fileSize;
            entries[t.level()] += t.meta().entries;
            placements.get(t.level()).put(t.placement(), true);
            total += t.meta().fileSize;
            formats.merge(format(fs, FileNames.table(dir, t.meta().number)), 1, Integer::sum);
        }
        List<Level> levels = new ArrayList<>();
        for (int l = 0; l <= deepest; l++) {
            levels.add(new Level(l, (int) tables[l], bytes[l], entries[l], placements.get(l).size()));
        }
        List<String> names = new ArrayList<>(fs.list(dir));
        Collections.sort(names);
        List<Log> logs = new ArrayList<>();
        for (String name : names) {
            long n = FileNames.number(name, FileNames.LOG_SUFFIX);
            if (n >= 0 && n >= m.logNumber()) {
                logs.add(new Log(name, fs.size(dir.resolve(name))));
            }
        }
        double amp = deepest < 0 || bytes[deepest] == 0 ? Double.NaN : (double) total / bytes[deepest];
        return new Info(dir.toString(), m.scheme(), m.manifest().getFileName().toString(), m.logNumber(),
                m.nextFileNumber(), m.lastSequence(), levels, logs, total, amp, formats, m.edits().size());
    }

    /** "sstable v2", "htable v1", or what is wrong with the file's header. */
    private static String format(FileSystem fs, Path path) throws IOException {
        if (!fs.exists(path)) {
            return "missing";
        }
        try (ReadableFile f = fs.openTable(path)) {
            byte[] header = f.read(0, (int) Math.min(f.size(), FileHeader.LENGTH));
            FileHeader.Parsed p = FileHeader.read(header, path);
            return kindName(p.kind()) + " v" + p.version();
        } catch (RuntimeException e) {
            return "damaged header";
        }
    }

    /** The name of a file kind of the header spec (docs/formats/header.md). */
    public static String kindName(int kind) {
        return switch (kind) {
            case FileHeader.KIND_WAL -> "wal";
            case FileHeader.KIND_MANIFEST -> "manifest";
            case FileHeader.KIND_SSTABLE -> "sstable";
            case FileHeader.KIND_CURRENT -> "current";
            case FileHeader.KIND_HTABLE -> "htable";
            case FileHeader.KIND_CLTABLE -> "cl-table";
            default -> "kind " + kind;
        };
    }
}
