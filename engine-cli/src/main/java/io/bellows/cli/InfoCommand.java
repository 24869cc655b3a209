package io.bellows.cli;

import io.bellows.engine.internal.inspect.StoreInfo;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code bellows info DIR}: the scheme, levels, placements, WAL files, formats and space amplification. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Show what a closed store holds: scheme, levels (tables, bytes, guards or containers),"
                + " WAL files, table formats and versions, space amplification.")
final class InfoCommand extends StoreCommand {
    @Override
    public Integer call() throws Exception {
        StoreInfo.Info info;
        try (StoreDir store = StoreDir.lock(dir)) {
            info = StoreInfo.of(store.fs, store.dir);
        }
        PrintWriter out = out();
        if (output.json) {
            output.printJson(out, info);
            return 0;
        }
        out.printf("store      %s%nscheme     %s%nmanifest   %s (%d edits)%n", info.dir(), info.scheme(), info.manifest(),
                info.edits());
        out.printf("sequence   %d (last)%nlog number %d%nnext file  %d%n", info.lastSequence(), info.logNumber(),
                info.nextFileNumber());
        out.printf("%-6s %8s %14s %12s %11s%n", "level", "tables", "bytes", "entries", "placements");
        for (StoreInfo.Level l : info.levels()) {
            out.printf("L%-5d %8d %14d %12d %11d%n", l.level(), l.tables(), l.bytes(), l.entries(), l.placements());
        }
        for (StoreInfo.Log log : info.logs()) {
            out.printf("wal        %s %d bytes%n", log.file(), log.bytes());
        }
        StringBuilder formats = new StringBuilder();
        for (Map.Entry<String, Integer> e : info.formats().entrySet()) {
            formats.append(formats.length() == 0 ? "" : ", ").append(e.getKey()).append(": ").append(e.getValue());
        }
        out.printf("tables     %d bytes%s%n", info.tableBytes(), formats.length() == 0 ? "" : " (" + formats + ")");
        out.printf("space amp  %s (live table bytes / deepest level's bytes, RocksDB's estimate)%n",
                Double.isNaN(info.spaceAmplification()) ? "-"
                        : String.format(Locale.ROOT, "%.2f", info.spaceAmplification()));
        out.flush();
        return 0;
    }
}
