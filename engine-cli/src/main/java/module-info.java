/**
 * bellows, the operator's tool: looks inside a closed store through the engine's own readers (the
 * manifest, WAL and table readers, exported to this module only) and reads or compacts it through the
 * public API.
 */
module io.bellows.cli {
    requires io.bellows.engine;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;

    opens io.bellows.cli to info.picocli;
}
