package io.bellows.bench;

/** Draws key numbers from [0, num) for one thread. Not thread-safe. */
interface KeyChooser {
    long nextKey();
}
