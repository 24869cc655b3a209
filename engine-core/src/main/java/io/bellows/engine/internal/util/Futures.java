package io.bellows.engine.internal.util;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting on background reads whose result no longer matters, only that they ended. */
public final class Futures {
    private Futures() {}

    /**
     * Waits for {@code f} to end, whatever it returns or throws, so that nothing is left reading a table the
     * caller is about to give back; an interrupt is kept for the caller and does not cut the wait short.
     */
    public static void awaitQuietly(Future<?> f) {
        boolean interrupted = false;
        while (true) {
            try {
                f.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException | RuntimeException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
