package io.bellows.engine.internal.faults;

import io.bellows.engine.internal.io.CrashableFileSystem;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The crash images a fault run takes (the store as a crash at that moment would leave it), each with
 * what the {@link WriteModel} knew then. Taken under the model's monitor, so image and model agree even
 * when a background thread takes the image while the workload writes.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class CrashImages {
    /** One image: when it was taken, the store after a process crash then, the model then. */
    record Image(String when, CrashableFileSystem store, WriteModel model, boolean alsoMachineCrash) {}

    private final CrashableFileSystem mem;
    private final WriteModel model;
    private final List<Image> images = new CopyOnWriteArrayList<>();

    CrashImages(CrashableFileSystem mem, WriteModel model) {
        this.mem = mem;
        this.model = model;
    }

    /**
     * Takes an image of the store now; {@code alsoMachineCrash}: check it after a machine crash too (only
     * synced data kept), not only after a process crash.
     */
    void take(String when, boolean alsoMachineCrash) {
        synchronized (model) {
            images.add(new Image(when, mem.processCrash(), model.copy(), alsoMachineCrash));
        }
    }

    /** How many images were taken {@code when} (a prefix of the label). */
    int count(String when) {
        int n = 0;
        for (Image i : images) {
            if (i.when().startsWith(when)) {
                n++;
            }
        }
        return n;
    }

    List<Image> all() {
        return List.copyOf(images);
    }
}
