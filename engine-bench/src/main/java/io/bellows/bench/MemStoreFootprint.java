package io.bellows.bench;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.WriteOptions;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Bytes per MemStore entry of each segment form, as the engine estimates them ({@link EngineStats})
 * and as measured: Java heap as used heap after {@code System.gc()} before and after the puts, off-heap as
 * the JVM's direct memory before and after. Each form runs in a JVM of its own, started with this JVM's
 * options, so that no form inherits another's garbage, JIT state or pooled off-heap arenas (netty's
 * pooled allocator keeps its arena chunks for the next MemStore, which would hide the next form's
 * allocations). See engine-bench/README.md for the forms and flags.
 *
 * <p>Each form opens an engine on an empty temporary store, puts {@code --num} distinct keys in random
 * order without a WAL, and waits for in-memory flattening and merging to finish. Forms that flatten put
 * keys until an in-memory flush empties the active segment, so every entry is in flattened segments.
 * {@code --fill=true} instead puts entries up to one cell short of {@code --memstore_size}: a full
 * MemStore just before its disk flush, with the active segment as full as it gets.
 */
public final class MemStoreFootprint {
    private static final double MIB = 1024.0 * 1024.0;
    private static final String ROW = "%-17s %-8s %-6s %5s %9s %8s | %8s %8s %8s %7s | %8s %8s %7s %8s | %8s%n";
    private static final long SETTLE_NANOS = 120_000_000_000L;

    /** The segment forms: where the cells end up, by layout, policy and active fraction. */
    enum Form {
        SKIPLIST_NONE("skiplist-none", MemoryLayout.ON_HEAP, InMemoryCompaction.NONE, false),
        SKIPLIST("skiplist", MemoryLayout.ON_HEAP, InMemoryCompaction.BASIC, false),
        FLAT("flat", MemoryLayout.ON_HEAP, InMemoryCompaction.BASIC, true),
        OFFHEAP_SKIPLIST("offheap-skiplist", MemoryLayout.OFF_HEAP, InMemoryCompaction.BASIC, false),
        SERIALIZED("serialized", MemoryLayout.OFF_HEAP, InMemoryCompaction.BASIC, true);

        final String flagName;
        final MemoryLayout layout;
        final InMemoryCompaction policy;
        /** Whether cells are flattened: the active segment is pushed at --active_fraction; else never (A = 1). */
        final boolean flattens;

        Form(String flagName, MemoryLayout layout, InMemoryCompaction policy, boolean flattens) {
            this.flagName = flagName;
            this.layout = layout;
            this.policy = policy;
            this.flattens = flattens;
        }

        static Form byFlagName(String name) {
            for (Form f : values()) {
                if (f.flagName.equals(name.trim())) {
                    return f;
                }
            }
            throw new FlagException("unknown form '" + name + "'; known: skiplist-none, skiplist, flat,"
                    + " offheap-skiplist, serialized");
        }
    }

    /** The command line: --forms, --num, --memstore_size, --active_fraction, --key_size, --value_size, --fill. */
    record Settings(List<Form> forms, long num, long memstoreSize, double activeFraction, int keySize, int valueSize,
            boolean fill, long seed) {
        static Settings parse(String[] args) {
            Map<String, String> v = new HashMap<>();
            for (String a : args) {
                int eq = a.indexOf('=');
                if (!a.startsWith("--") || eq < 0) {
                    throw new FlagException("expected --name=value, got '" + a + "'");
                }
                if (v.put(a.substring(2, eq), a.substring(eq + 1)) != null) {
                    throw new FlagException("flag " + a.substring(0, eq) + " is given more than once");
                }
            }
            List<Form> forms = new ArrayList<>();
            for (String f : v.getOrDefault("forms", "skiplist-none,skiplist,flat,offheap-skiplist,serialized")
                    .split(",")) {
                forms.add(Form.byFlagName(f));
            }
            Settings s = new Settings(forms, BenchFlags.longIn("num", v.getOrDefault("num", "1000000"), 1, 1L << 32),
                    BenchFlags.bytesIn("memstore_size", v.getOrDefault("memstore_size", "256M"), 1L << 20, 64L << 30),
                    Double.parseDouble(v.getOrDefault("active_fraction", "0.02")),
                    (int) BenchFlags.longIn("key_size", v.getOrDefault("key_size", "16"), 8, 1024),
                    (int) BenchFlags.longIn("value_size", v.getOrDefault("value_size", "100"), 0, 1 << 20),
                    Boolean.parseBoolean(v.getOrDefault("fill", "false")),
                    BenchFlags.longIn("seed", v.getOrDefault("seed", "301"), Long.MIN_VALUE, Long.MAX_VALUE));
            v.keySet().removeAll(List.of("forms", "num", "memstore_size", "active_fraction", "key_size", "value_size",
                    "fill", "seed", "child"));
            if (!v.isEmpty()) {
                throw new FlagException("unknown flags " + v.keySet());
            }
            return s;
        }

        int cellBytes() {
            return keySize + valueSize;
        }

        EngineOptions options(Form f) {
            return EngineOptions.builder().memstoreSize(memstoreSize).memoryLayout(f.layout).inMemoryCompaction(f.policy)
                    .activeSegmentFraction(f.flattens ? activeFraction : 1.0).build();
        }

        /** Entries to put: up to one cell short of a disk flush, or num rounded up to an in-memory flush. */
        long entries(Form f) {
            if (fill) {
                return (memstoreSize - 1) / cellBytes();
            }
            long perPush = cellsPerPush(f);
            return f.flattens ? (num + perPush - 1) / perPush * perPush : num;
        }

        /** Cells that fill the active segment: it is pushed at the end of the write that reaches A x size. */
        long cellsPerPush(Form f) {
            long threshold = Math.max(1, (long) (memstoreSize * options(f).activeSegmentFraction()));
            return (threshold + cellBytes() - 1) / cellBytes();
        }
    }

    private MemStoreFootprint() {}

    public static void main(String[] args) {
        try {
            Settings s = Settings.parse(args);
            String child = null;
            for (String a : args) {
                if (a.startsWith("--child=")) {
                    child = a.substring("--child=".length());
                }
            }
            if (child != null) {
                measure(s, Form.byFlagName(child), System.out);
            } else {
                runAll(s, args, System.out);
            }
        } catch (FlagException | IllegalArgumentException e) {
            // A bad flag, a malformed number, or engine options out of range.
            System.err.println("memstore footprint: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void runAll(Settings s, String[] args, PrintStream out) {
        Runtime rt = Runtime.getRuntime();
        out.printf(Locale.ROOT, "MemStore footprint: keys %d B, values %d B (cell data %d B), memstore %s, A %s, %s;"
                        + " max heap %d MiB; JVM options %s%n",
                s.keySize(), s.valueSize(), s.cellBytes(), BenchFlags.sizeText(s.memstoreSize()), s.activeFraction(),
                s.fill() ? "filled to one cell short of a disk flush" : "num " + s.num(), rt.maxMemory() >> 20,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        out.println("B/e = bytes per entry. est: the engine's own figures (EngineStats: MemStore heap estimate, off-heap"
                + " bytes of its segments, bytes its chunk pool allocated).");
        out.println("meas: used heap after System.gc() and direct memory (JDK direct buffers + netty's counter),"
                + " after minus before the puts.");
        out.printf(Locale.ROOT, ROW, "form", "layout", "policy", "A", "entries", "data MiB", "heap MiB", "heap B/e",
                "offh B/e", "pool B/e", "heap MiB", "heap B/e", "heap %", "dir B/e", "active");
        out.printf(Locale.ROOT, ROW, "", "", "", "", "", "", "est", "est", "est", "est", "meas", "meas", "meas", "meas",
                "entries");
        out.println("-".repeat(152));
        List<String> base = new ArrayList<>(CompareRunner.javaCommand());
        base.set(base.size() - 1, MemStoreFootprint.class.getName());
        for (Form f : s.forms()) {
            List<String> cmd = new ArrayList<>(base);
            for (String a : args) {
                if (!a.startsWith("--forms=")) {
                    cmd.add(a);
                }
            }
            cmd.add("--child=" + f.flagName);
            try {
                Process p = new ProcessBuilder(cmd).inheritIO().start();
                int code = p.waitFor();
                if (code != 0) {
                    throw new IllegalStateException("form " + f.flagName + " failed in its JVM with exit code " + code);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start a JVM for form " + f.flagName, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Runs one form in this JVM and prints its row. */
    static void measure(Settings s, Form f, PrintStream out) {
        EngineOptions options = s.options(f);
        long entries = s.entries(f);
        KeyCodec keys = new KeyCodec(s.keySize());
        SplittableRandom random = new SplittableRandom(s.seed());
        RandomPermutation order = new RandomPermutation(entries, random.nextLong());
        WriteOptions noWal = WriteOptions.noWal();
        try (BenchDirectory dir = BenchDirectory.prepare(null, false); Engine db = Engine.open(dir.path(), options)) {
            long heapBefore = usedHeapAfterGc();
            long directBefore = directMemory();
            for (long i = 0; i < entries; i++) {
                byte[] value = new byte[s.valueSize()];
                random.nextBytes(value);
                db.put(keys.encode(order.apply(i)), value, noWal);
            }
            long active = f.flattens ? entries % s.cellsPerPush(f) : entries;
            EngineStats st = settle(db, active);
            long heap = usedHeapAfterGc() - heapBefore;
            long direct = directMemory() - directBefore;
            st = db.stats();
            EngineStats.MemStore m = st.memstore();
            long n = m.entries();
            out.printf(Locale.ROOT, ROW, f.flagName, f.layout, f.policy, f.flattens ? s.activeFraction() : "1", n,
                    mib(m.dataBytes()), mib(m.heapBytes()), perEntry(m.heapBytes(), n),
                    perEntry(m.offHeapBytes(), n), perEntry(m.chunkPoolOffHeapBytes(), n), mib(heap),
                    perEntry(heap, n), String.format(Locale.ROOT, "%.1f", 100.0 * heap / m.dataBytes()),
                    perEntry(direct, n), m.skiplist().entries());
            if (n != entries || m.skiplist().entries() != active || st.background().flushes() != 0) {
                out.printf(Locale.ROOT, "  note: expected %d entries, %d in the active skiplist, no disk flush;"
                        + " got %d, %d, %d flushes%n", entries, active, n, m.skiplist().entries(),
                        st.background().flushes());
            }
        }
    }

    /** Waits until only the active segment is a skiplist and in-memory work has stopped. */
    private static EngineStats settle(Engine db, long activeEntries) {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        EngineStats last = db.stats();
        while (System.nanoTime() < deadline) {
            sleep(200);
            EngineStats now = db.stats();
            EngineStats.MemStore m = now.memstore();
            if (m.skiplist().entries() == activeEntries && m.inMemoryFlattens() == last.memstore().inMemoryFlattens()
                    && m.inMemoryMerges() == last.memstore().inMemoryMerges()) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Direct memory in use: the JDK's direct buffer pool, where netty's buffers live unless it may call
     * the no-cleaner constructor; when it may, they are counted only by netty's own counter (which then
     * counts nothing else: in netty 4.2 it counts the JDK's buffers too, so it is not simply added).
     */
    private static long directMemory() {
        long bytes = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                bytes += b.getMemoryUsed();
            }
        }
        return bytes + (PlatformDependent.useDirectBufferNoCleaner() ? Math.max(0, PlatformDependent.usedDirectMemory()) : 0);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / MIB);
    }

    private static String perEntry(long bytes, long entries) {
        return entries == 0 ? "-" : String.format(Locale.ROOT, "%.1f", (double) bytes / entries);
    }
}
