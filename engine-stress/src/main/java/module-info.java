/**
 * bellows-stress: crash cycles that kill a child JVM writing to a store with SIGKILL, reopen the store
 * and check every acknowledged write and every batch's atomicity. Uses the public API only.
 */
module io.bellows.stress {
    requires io.bellows.engine;
    requires info.picocli;

    opens io.bellows.stress to info.picocli;
}
