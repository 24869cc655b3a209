package io.bellows.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** A command on a store's directory, its first parameter. */
abstract class StoreCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DIR", description = "The store's directory.")
    Path dir;
}
