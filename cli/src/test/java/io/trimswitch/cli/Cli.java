package io.trimswitch.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command-line tool in-process, as a user would from a shell, for tests. */
public final class Cli {
    /** What a run of {@code trimswitch} printed and how it exited. */
    public record Result(int exit, String out, String err) {
    }

    private Cli() {
    }

    public static Result trimswitch(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = TrimswitchCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }
}
