package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.CaptureFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** The one command-line tool: {@code trimswitch <command>}. */
@Command(
    name = "trimswitch",
    mixinStandardHelpOptions = true,
    versionProvider = TrimswitchCommand.Version.class,
    description = "A userspace packet-trimming switch that reproduces a Tofino-style trimming design.",
    subcommands = {ScenarioCommand.class, EvaluateCommand.class, ReplayCommand.class, RunCommand.class, StatsCommand.class,
        GenCommand.class, CommandLine.HelpCommand.class})
public final class TrimswitchCommand implements Runnable {
    /** Exit code for a run that completed but broke packet conservation (a bug). */
    public static final int EXIT_RUN_FAILED = 1;
    /** Exit code for bad arguments, settings or files. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(final String[] args) {
        // Frames are bounded by the parser before any field is read; the buffer's own bounds checks only
        // cost time on the hot path (as in Aeron's production setting). Tests keep them on.
        if (System.getProperty("agrona.disable.bounds.checks") == null) {
            System.setProperty("agrona.disable.bounds.checks", "true");
        }
        // Plots are drawn off-screen.
        System.setProperty("java.awt.headless", "true");
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the tool with the given streams and returns its exit code; used by main and by tests. */
    public static int execute(final String[] args, final PrintWriter out, final PrintWriter err) {
        final CommandLine commandLine = new CommandLine(new TrimswitchCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            final CommandLine failed = exception.getCommandLine();
            err.println("trimswitch: " + firstLine(exception.getMessage()) + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((exception, failed, parseResult) -> {
            if (exception instanceof ConfigException || exception instanceof CaptureFormatException
                || exception instanceof java.io.UncheckedIOException) {
                err.println("trimswitch: " + exception.getMessage());
                return EXIT_USAGE;
            }
            if (exception instanceof io.trimswitch.realtime.RealTimeFault) {
                err.println("trimswitch: " + exception.getMessage());
                return EXIT_RUN_FAILED;
            }
            throw exception;
        });
        return commandLine.execute(args);
    }

    private static String firstLine(final String message) {
        final int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    /** The version from the jar's manifest, when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            final String version = TrimswitchCommand.class.getPackage().getImplementationVersion();
            return new String[] {"trimswitch " + (version == null ? "development build" : version)};
        }
    }
}
