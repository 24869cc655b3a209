package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A cursor that cannot open a table below L0 (found by bellows-stress, where the process ran out of
 * file descriptors) raises the documented {@link EngineIOException}, not a bare UncheckedIOException
 * from the level iterator that opens tables as the cursor reaches them.
 */
class CursorTableOpenErrorTest {
    private static final Path DIR = Path.of("/db");

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM"})
    void unreadableTableBelowL0IsAnEngineIOException(CompactionStyle style) {
        EngineOptions options = EngineConfigs.small(style, InMemoryCompaction.NONE).build();
        CrashableFileSystem mem = new CrashableFileSystem();
        try (EngineImpl db = EngineImpl.open(DIR, options, mem)) {
            for (int i = 0; i < 3000; i++) {
                db.put(String.format("key%06d", i).getBytes(), ("value-" + i + "x".repeat(40)).getBytes());
            }
            db.compactRange(null, null);
        }
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        try (EngineImpl db = EngineImpl.open(DIR, options, fs)) {
            fs.inject(Fault.on(Op.READ).pathMatching(".*\\.sst").times(Integer.MAX_VALUE));
            assertThrows(EngineIOException.class, () -> {
                try (Cursor c = db.cursor(ReadOptions.defaults())) {
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        c.key();
                    }
                }
            });
            fs.clear();
        }
    }
}
