package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void drawsInPlaceAndClears() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        bar.draw("fillrandom", 250, 1000, 50);
        String first = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(first.startsWith("\rfillrandom"), first);
        assertTrue(first.contains("[#######.......................]  25%"), first);
        assertTrue(first.contains("ETA 15s"), first);
        bar.clear();
        String all = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(all.endsWith("\r"), "the line is blanked and the cursor returned");
        assertEquals("2m05s", ProgressBar.formatSeconds(125));
        assertEquals("1h01m", ProgressBar.formatSeconds(3660));
    }

    @Test
    void samplerRecordsThroughputAndDrawsNothingForShortWorkloads() throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long[] done = {0};
        Sampler s = new Sampler("x", 100, () -> done[0] += 10, 20,
                new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        Thread.sleep(150);
        double[] samples = s.finish();
        assertTrue(samples.length >= 3, "one sample per 20 ms: " + samples.length);
        assertTrue(samples[0] > 0);
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "no bar before two seconds");
    }

    @Test
    void samplerDoublesItsIntervalToKeepAChartableNumberOfPoints() {
        Sampler s = new Sampler("x", 100, () -> 0, 3_600_000, null);
        for (int i = 0; i < Sampler.MAX_SAMPLES; i++) {
            s.add(i % 2 == 0 ? 100 : 300);
        }
        assertEquals(7_200_000, s.intervalMillis(), "full: neighbours merged, interval doubled");
        for (int i = 0; i < Sampler.MAX_SAMPLES / 2 + 1; i++) {
            s.add(50);
        }
        assertEquals(14_400_000, s.intervalMillis());
        double[] samples = s.finish();
        assertEquals(Sampler.MAX_SAMPLES / 2 + 1, samples.length);
        assertEquals(200, samples[0], 1e-9, "two merges of (100 + 300) / 2 and (100 + 300) / 2");
        assertEquals(50, samples[samples.length - 1], 1e-9);
        assertTrue(samples.length >= Charts.MIN_POINTS);
    }
}
