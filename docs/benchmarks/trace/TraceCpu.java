import io.bellows.engine.TraceOptions;
import io.bellows.engine.internal.trace.TraceWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of this thread per recorded call (clock read included), which a loaded machine does not inflate. */
public class TraceCpu {
    public static void main(String[] args) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        byte[] key = new byte[16];
        byte[] value = new byte[100];
        Path f = Files.createTempFile("cpu", ".trace");
        int n = 5_000_000;
        for (int round = 0; round < 6; round++) {
            for (String op : new String[] {"put", "get", "none"}) {
                TraceWriter w = TraceWriter.start(f, TraceOptions.defaults());
                long c0 = mx.getCurrentThreadCpuTime();
                long sink = 0;
                for (int i = 0; i < n; i++) {
                    key[15] = (byte) i;
                    long t = System.nanoTime();
                    if (op.equals("put")) {
                        w.put(t, key, value);
                    } else if (op.equals("get")) {
                        w.get(t, key);
                    } else {
                        sink += t;
                    }
                }
                long c1 = mx.getCurrentThreadCpuTime();
                w.close();
                if (round >= 2) {
                    System.out.printf("round %d %s: %.1f ns cpu per call%s%n", round, op, (c1 - c0) / (double) n,
                            sink == 1 ? "!" : "");
                }
            }
        }
        Files.delete(f);
    }
}
