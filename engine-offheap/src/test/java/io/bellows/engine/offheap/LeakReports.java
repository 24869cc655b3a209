package io.bellows.engine.offheap;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when netty reported a leaked buffer while it ran. Netty only logs leaks; this
 * extension installs a {@link ResourceLeakDetectorFactory} whose detectors also record every report,
 * and after each test class forces collection and polls the detectors, then fails with the records.
 *
 * <p>Registration: for every test class of this module, the engine-core suites rerun here included,
 * through JUnit's extension autodetection: META-INF/services/org.junit.jupiter.api.extension.Extension
 * in src/test/resources names this class, and surefire sets
 * {@code junit.jupiter.extensions.autodetection.enabled=true} (as a system property: a
 * junit-platform.properties here would shadow engine-core's, which its test-jar brings along, and JUnit
 * warns about the pair on every launch). Run from an IDE, set that property. Autodetection instantiates the
 * extension before the first test class runs, so the factory is in place before netty creates its
 * buffer leak detector (once, when {@code AbstractByteBuf} is initialized); {@link #beforeAll} checks
 * that it was in time. The level is PARANOID (surefire sets it too), so every buffer is tracked.
 *
 * <p>A leak is reported once its buffer has been collected, which may be in a later class than the
 * one that leaked it; either way the build fails. Leaks collected after the last class go unnoticed.
 */
public final class LeakReports implements BeforeAllCallback, AfterAllCallback {
    private static final List<String> REPORTS = new CopyOnWriteArrayList<>();
    private static final List<RecordingDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();
    /** Test classes this extension ran for: a test checks that it is registered. */
    private static final Set<String> WATCHED = ConcurrentHashMap.newKeySet();
    /** Set by a test that leaks on purpose: its leak is recorded but not logged. */
    private static volatile boolean quiet;

    static {
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                    long maxActive) {
                RecordingDetector<T> d = new RecordingDetector<>(resource, samplingInterval);
                DETECTORS.add(d);
                return d;
            }
        });
    }

    @Override
    public void beforeAll(ExtensionContext context) throws ReflectiveOperationException {
        Object detector = byteBufDetector();
        if (!(detector instanceof RecordingDetector)) {
            throw new IllegalStateException("netty's ByteBuf leak detector (" + detector.getClass().getName()
                    + ") was created before LeakReports installed its factory: leaks would go unreported");
        }
        context.getTestClass().ifPresent(c -> WATCHED.add(c.getName()));
    }

    /** Whether this extension ran before {@code testClass}'s tests. */
    static boolean watching(Class<?> testClass) {
        return WATCHED.contains(testClass.getName());
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        collect();
        List<String> leaks = reports();
        if (!leaks.isEmpty()) {
            clear();
            throw new AssertionError(leaks.size() + " netty leak report(s) during or before "
                    + context.getDisplayName() + ":\n" + String.join("\n\n", leaks));
        }
    }

    /**
     * Collects garbage and polls every detector, so leaks of buffers unreachable by now are reported.
     * Reference processing runs after a collection on its own thread, hence several rounds.
     */
    static void collect() throws InterruptedException {
        for (int round = 0; round < 4; round++) {
            System.gc();
            Thread.sleep(20);
            for (RecordingDetector<?> d : DETECTORS) {
                d.poll();
            }
        }
    }

    /** The leak reports recorded and not cleared. */
    static List<String> reports() {
        return new ArrayList<>(REPORTS);
    }

    /** Forgets the reports recorded. */
    static void clear() {
        REPORTS.clear();
    }

    /** Forgets the reports {@code which} selects (a test that leaks on purpose forgets its own). */
    static void forget(Predicate<String> which) {
        REPORTS.removeIf(which);
    }

    /** Whether to keep reports out of the log (they are still recorded). */
    static void quiet(boolean on) {
        quiet = on;
    }

    /** The one detector every ByteBuf allocator tracks its buffers with, made when netty first needs it. */
    static Object byteBufDetector() throws ReflectiveOperationException {
        Field f = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
        f.setAccessible(true);
        return f.get(null);
    }

    static boolean installed() throws ReflectiveOperationException {
        return byteBufDetector() instanceof RecordingDetector;
    }

    /** Netty's detector, recording each report besides logging it. */
    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        /** Report whatever the logger's level: the records are what fails the test. */
        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            REPORTS.add("LEAK: " + resourceType + ".release() was not called before it was collected.\n" + records);
            if (!quiet) {
                super.reportTracedLeak(resourceType, records);
            }
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            REPORTS.add("LEAK: " + resourceType + ".release() was not called before it was collected (no records).");
            if (!quiet) {
                super.reportUntracedLeak(resourceType);
            }
        }

        /**
         * Polls the queue of collected resources: netty does it only when it starts tracking another
         * one, so track a throwaway object and stop tracking it at once. Erasure makes the object
         * acceptable whatever T is; the detector only holds it weakly.
         */
        @SuppressWarnings("unchecked")
        void poll() {
            T probe = (T) new Object();
            ResourceLeakTracker<T> t = trackForcibly(probe);
            if (t != null) {
                t.close(probe);
            }
        }
    }
}
