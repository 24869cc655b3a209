package io.bellows.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bellows}, the operator's tool, in the spirit of RocksDB's {@code ldb} and {@code sst_dump}: every
 * subcommand works on a closed store (one another process holds open is refused), prints text or, with
 * {@code --json}, one JSON document, and exits 0 on success, 1 when it found damage or the store
 * refused the operation, and 2 on bad usage.
 */
@Command(name = "bellows", mixinStandardHelpOptions = true, version = "bellows 0.1.0",
        description = "Look inside, check and operate a closed Bellows store.",
        subcommands = {InfoCommand.class, VerifyCommand.class, DumpManifestCommand.class, DumpWalCommand.class,
            DumpTableCommand.class, GetCommand.class, ScanCommand.class, CompactCommand.class, CheckpointCommand.class})
public final class BellowsCli {
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command line, printing to {@code out} and {@code err}, and returns its exit status. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new BellowsCli()).setOut(out).setErr(err);
        cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println("bellows " + commandLine.getCommandName() + ": " + message(e));
            return 1;
        });
        return cl.execute(args);
    }

    private static String message(Exception e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
