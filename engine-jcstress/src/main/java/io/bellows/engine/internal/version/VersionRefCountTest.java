package io.bellows.engine.internal.version;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import com.carrotsearch.hppc.LongLongHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The reference count of a {@link Version}, which readers pin without locks
 * ({@code VersionSet.acquireCurrent()}) while an install drops the reference "being current" holds.
 * When the count reaches zero the version set is told, and the sweep may delete the files only that
 * version listed: a reader must never hold a version past that point.
 *
 * <p>One actor pins the version as a reader does (and unpins it); the other drops the current reference.
 * r1: unreferenced notifications the reader saw while it held its pin (-1 if the pin was refused, as
 * it is once the version is gone: a reader then takes the new current version); r2: notifications
 * after both actors.
 *
 * <p>Forbidden: r1 = 1, a pin that succeeded after the version was given up (its files may be deleted
 * under the reader); r2 other than 1, the version reported unreferenced twice or never (files deleted
 * early, or kept forever).
 */
@JCStressTest
@Description("A reader's pin and the install's release of a version: unreferenced exactly once, never while pinned")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "pinned before the release; the reader's unpin was the last")
@Outcome(id = "-1, 1", expect = ACCEPTABLE, desc = "pin refused: the version was already unreferenced")
@Outcome(expect = FORBIDDEN, desc = "pinned an unreferenced version, or notified twice or never")
@State
public class VersionRefCountTest {
    final AtomicInteger unreferenced = new AtomicInteger();
    final Version version = new Version(Version.emptyLevels(3), new LongLongHashMap(), v -> unreferenced.incrementAndGet());

    @Actor
    public void reader(II_Result r) {
        if (version.tryRetain()) {
            r.r1 = unreferenced.get();
            version.release();
        } else {
            r.r1 = -1;
        }
    }

    @Actor
    public void install() {
        version.release();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = unreferenced.get();
    }
}
