package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.OneLine;
import io.trimswitch.dataplane.io.CaptureFormatException;
import io.trimswitch.simulator.TransportLiveCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one command-line tool: {@code trimswitch <command>}. */
@Command(
    addMethodSubcommands = false,
    name = "trimswitch",
    mixinStandardHelpOptions = true,
    versionProvider = TrimswitchCommand.Version.class,
    description = "A userspace packet-trimming switch that reproduces a Tofino-style trimming design.")
public final class TrimswitchCommand implements Runnable {
    /** The tool's own commands, in the order the usage lists them: then the transports' live commands, then help. */
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
        // No option takes a date, a time or an SQL type: picocli need not load java.time and java.sql to convert them.
        if (System.getProperty("picocli.converters.excludes") == null) {
            System.setProperty("picocli.converters.excludes", "java\\.time\\..*|java\\.sql\\..*");
        }
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the tool with the given streams and returns its exit code; used by main and by tests. */
    public static int execute(final String[] args, final PrintWriter out, final PrintWriter err) {
        // Building a command's model reads all its annotations, and the first model built pays for picocli's own
        // start, a tenth of a second on a cold JVM: a command named first is built alone, under its full name;
        // anything else (usage, help, a misspelling) gets the whole tree.
        final CommandLine named = args.length > 0 && !"help".equals(args[0]) ? named(args[0]) : null;
        final CommandLine commandLine;
        final String[] commandArguments;
        if (named != null) {
            commandLine = named;
            commandLine.setCommandName("trimswitch " + args[0]);
            commandArguments = java.util.Arrays.copyOfRange(args, 1, args.length);
        } else {
            commandLine = tree();
            commandArguments = args;
        }
        commandLine.setOut(out);
        commandLine.setErr(err);
        WholeNumberOptions.register(commandLine);
        final Errors errors = new Errors(err);
        commandLine.setParameterExceptionHandler(errors);
        commandLine.setExecutionExceptionHandler(errors);
        try {
            return commandLine.execute(commandArguments);
        } catch (final OutOfMemoryError e) {
            // A run larger than the heap: the failed allocation is garbage by now, so one line can still be printed.
            err.println("trimswitch: out of memory (" + e.getMessage() + "): the run needs a larger heap than this JVM's "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB; give it one with TRIMSWITCH_JAVA_OPTS=-Xmx<size>, e.g. -Xmx4g");
            return EXIT_RUN_FAILED;
        }
    }

    /**
     * How a bad command line and a failed run are reported: one line, and the exit code. A class, not two lambdas: the
     * class-data sharing archive cannot keep picocli's pre-Java-6 classes once a lambda for one of its interfaces has
     * linked them while the archive was made, and picocli's main class is the largest the tool loads.
     */
    private static final class Errors implements CommandLine.IParameterExceptionHandler, CommandLine.IExecutionExceptionHandler {
        private final PrintWriter err;

        Errors(final PrintWriter err) {
            this.err = err;
        }

        @Override
        public int handleParseException(final CommandLine.ParameterException exception, final String[] arguments) {
            final CommandLine failed = exception.getCommandLine();
            final String suggestion = exception instanceof CommandLine.UnmatchedArgumentException unmatched ? DidYouMean.of(unmatched) : "";
            err.println("trimswitch: " + OneLine.of(firstLine(exception.getMessage()) + suggestion) + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            return EXIT_USAGE;
        }

        @Override
        public int handleExecutionException(final Exception exception, final CommandLine failed, final CommandLine.ParseResult parseResult)
            throws Exception {
            if (exception instanceof ConfigException || exception instanceof CaptureFormatException
                || exception instanceof io.trimswitch.dataplane.io.InputFiles.Refused
                || exception instanceof java.io.UncheckedIOException) {
                err.println("trimswitch: " + OneLine.of(exception.getMessage()));
                return EXIT_USAGE;
            }
            if (exception instanceof io.trimswitch.realtime.shard.RealTimeFault) {
                err.println("trimswitch: " + OneLine.of(exception.getMessage()));
                return EXIT_RUN_FAILED;
            }
            throw exception;
        }
    }

    /** The tool with every command: what its usage, {@code help}, the man pages and shell completion show. */
    static CommandLine tree() {
        final CommandLine tool = new CommandLine(new TrimswitchCommand());
        for (final Map.Entry<String, Class<?>> command : COMMANDS.entrySet()) {
            tool.addSubcommand(command.getKey(), model(command.getValue()));
        }
        for (final TransportLiveCommand live : TransportLiveCommand.registered()) {
            tool.addSubcommand(live.name(), model(live));
        }
        tool.addSubcommand("help", model(CommandLine.HelpCommand.class));
        return tool;
    }

    /** The command named {@code name}: one of the tool's own, else a transport's live command (found only then); null for none. */
    private static CommandLine named(final String name) {
        final Class<?> own = COMMANDS.get(name);
        if (own != null) {
            return model(own);
        }
        for (final TransportLiveCommand live : TransportLiveCommand.registered()) {
            if (live.name().equals(name)) {
                return model(live);
            }
        }
        return null;
    }

    /** A transport's live command's model: its command object, parsed and run as the tool's own are. */
    private static CommandLine model(final TransportLiveCommand live) {
        final CommandLine model = new CommandLine(live.command());
        model.getCommandSpec().versionProvider(new Version());
        return model;
    }

    /** A command's model: {@code scenario}'s, {@code fabric}'s and {@code replay}'s are defined in code, the others' by annotations. */
    private static CommandLine model(final Class<?> command) {
        final CommandLine model;
        if (command == ScenarioCommand.class) {
            model = new CommandLine(new ScenarioCommand().model());
        } else if (command == ReplayCommand.class) {
            model = new CommandLine(new ReplayCommand().model());
        } else if (command == FabricCommand.class) {
            model = new CommandLine(new FabricCommand().model());
        } else {
            model = new CommandLine(command);
        }
        model.getCommandSpec().versionProvider(new Version());
        return model;
    }

    private static Map<String, Class<?>> commands() {
        final Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("scenario", ScenarioCommand.class);
        commands.put("fabric", FabricCommand.class);
        commands.put("evaluate", EvaluateCommand.class);
        commands.put("replay", ReplayCommand.class);
        commands.put("run", RunCommand.class);
        commands.put("stats", StatsCommand.class);
        commands.put("ctl", CtlCommand.class);
        commands.put("gen", GenCommand.class);
        return commands;
    }

    private static String firstLine(final String message) {
        final int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    /** The version and the commit the build wrote into build.properties: {@code trimswitch 0.1.0 (ec949ed)}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            final java.util.Properties build = new java.util.Properties();
            try (java.io.InputStream in = TrimswitchCommand.class.getResourceAsStream("build.properties")) {
                if (in != null) {
                    build.load(in);
                }
            } catch (final java.io.IOException e) {
                // Unreadable: the version says what it does not know, as for a build without git.
            }
            final String manifest = TrimswitchCommand.class.getPackage().getImplementationVersion();
            final String version = build.getProperty("version", manifest == null ? "(unknown version)" : manifest);
            final String commit = build.getProperty("commit", "");
            return new String[] {"trimswitch " + version + " (" + (commit.isBlank() ? "unknown commit" : commit) + ")"};
        }
    }
}
