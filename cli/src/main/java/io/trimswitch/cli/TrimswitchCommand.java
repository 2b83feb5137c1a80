package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.CaptureFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one command-line tool: {@code trimswitch <command>}. */
@Command(
    name = "trimswitch",
    mixinStandardHelpOptions = true,
    versionProvider = TrimswitchCommand.Version.class,
    description = "A userspace packet-trimming switch that reproduces a Tofino-style trimming design.")
public final class TrimswitchCommand implements Runnable {
    /** The commands, in the order the usage lists them. */
    private static final Map<String, Class<?>> COMMANDS = commands();

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
        // Building a command's model reads all its annotations, and the first model built pays for picocli's own
        // start, a tenth of a second on a cold JVM: a command named first is built alone, under its full name;
        // anything else (usage, help, a misspelling) gets the whole tree.
        final Class<?> named = args.length > 0 && !"help".equals(args[0]) ? COMMANDS.get(args[0]) : null;
        final CommandLine commandLine;
        final String[] commandArguments;
        if (named != null) {
            commandLine = new CommandLine(named);
            commandLine.setCommandName("trimswitch " + args[0]);
            commandLine.getCommandSpec().versionProvider(new Version());
            commandArguments = java.util.Arrays.copyOfRange(args, 1, args.length);
        } else {
            commandLine = new CommandLine(new TrimswitchCommand());
            COMMANDS.forEach(commandLine::addSubcommand);
            commandLine.getSubcommands().values().forEach(command -> command.getCommandSpec().versionProvider(new Version()));
            commandArguments = args;
        }
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
        return commandLine.execute(commandArguments);
    }

    private static Map<String, Class<?>> commands() {
        final Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("scenario", ScenarioCommand.class);
        commands.put("fabric", FabricCommand.class);
        commands.put("evaluate", EvaluateCommand.class);
        commands.put("replay", ReplayCommand.class);
        commands.put("run", RunCommand.class);
        commands.put("stats", StatsCommand.class);
        commands.put("gen", GenCommand.class);
        commands.put("help", CommandLine.HelpCommand.class);
        return commands;
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
