package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of every workload on the real engine, through the command's entry point. */
class BellowsBenchSmokeTest {
    private static final List<Workload> DEFAULT_WORKLOADS = Workload.parseList(BenchFlags.DEFAULT_BENCHMARKS);

    @TempDir
    Path tmp;

    @Test
    void everyWorkloadRunsAndReadsFindEveryFilledKey() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = {"--num=2000", "--db=" + tmp.resolve("db"), "--csv=" + tmp.resolve("results.csv"),
            "--benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom,deleterandom"};
        List<WorkloadResult> results = BellowsBench.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        System.out.print(out.toString(StandardCharsets.UTF_8));

        assertEquals(DEFAULT_WORKLOADS.size(), results.size());
        for (WorkloadResult r : results) {
            assertTrue(r.ops() > 0, r.workload().flagName() + " reported no operations");
        }
        WorkloadResult readrandom = results.get(Workload.READRANDOM.ordinal());
        assertEquals(Workload.READRANDOM, readrandom.workload());
        assertEquals(readrandom.ops(), readrandom.found(), "fillrandom wrote every key in [0, num)");
        assertEquals(0, readrandom.notFound());
        WorkloadResult seekrandom = results.get(Workload.SEEKRANDOM.ordinal());
        assertEquals(seekrandom.ops(), seekrandom.found());
        WorkloadResult readseq = results.get(Workload.READSEQ.ordinal());
        assertEquals(400, readseq.ops(), "readseq reads --reads entries of a full store");
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("warning: bellows:LEVELED/NONE never wrote a table"),
                "2000 entries fit in the default MemStore: the run says it measured no disk");
        assertTrue(report.contains("engine: write-amp -, total write-amp "), "no flush, no write-amp: " + report);
    }
}
