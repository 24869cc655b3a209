package io.bellows.engine.internal.faults;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Takes the place of System.err while fault runs log their expected errors (slf4j-simple writes to
 * whatever System.err is at the time), keeping the first bytes of each run to show when it fails.
 */
final class LogCapture extends OutputStream {
    private static final int LIMIT = 32 << 10;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private PrintStream saved;

    synchronized void install() {
        saved = System.err;
        System.setErr(new PrintStream(this, true, StandardCharsets.UTF_8));
    }

    synchronized void uninstall() {
        if (saved != null) {
            System.setErr(saved);
            saved = null;
        }
    }

    synchronized void reset() {
        buf.reset();
    }

    /** What was logged since the last reset (its first 32 KiB). */
    synchronized String text() {
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        if (buf.size() < LIMIT) {
            buf.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        buf.write(b, off, Math.max(0, Math.min(len, LIMIT - buf.size())));
    }
}
