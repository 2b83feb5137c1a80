package io.trimswitch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.control.ControlClient;
import io.trimswitch.control.ControlPaths;
import io.trimswitch.control.ControlProtocol;
import io.trimswitch.control.SwitchControl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code trimswitch ctl}: commands to a running switch through its control socket, in the manner of {@code ovs-appctl}:
 * what it runs with, and changes that need no restart. The socket is found as {@code stats} finds the counters file.
 */
@Command(
    addMethodSubcommands = false,
    name = "ctl",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Talks to a running switch through its control socket, as ovs-appctl does: 'ctl help' lists the commands.",
        "'show' lists its ports and the settings a live switch uses ('show --all': every setting, 'show macs': the learned addresses); 'set KEY VALUE' changes a setting that may change while it runs (trim.*, control.t0Us/t1Us, meters' and ports' rates); 'reload' reads its config file again; 'del-port N' and 'add-port N@IFACE [--rate-gbps R] [--wait]' move an interface port to another interface; 'capture PORT start FILE' and 'capture PORT stop' write a port's frames to a pcapng while it runs; 'stop' stops it as SIGTERM does. A refused change leaves the switch as it was; its counters keep counting."})
public final class CtlCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--counters", paramLabel = "FILE|NAME",
        description = "The switch's counters file, as 'trimswitch run --counters' gave it, or a switch's name (sp1 finds /run/trimswitch/trimswitch-mininet-sp1.counters): its control socket is named after it (default: this network namespace's switch)")
    Path counters;

    @Option(names = "--socket", paramLabel = "SOCKET", description = "The control socket itself, as 'trimswitch run --control' gave it (default: found from --counters)")
    Path socket;

    @Option(names = "--json", description = "Print the answer as JSON (default: a table or one line).")
    boolean json;

    @Option(names = "--rate-gbps", paramLabel = "R", description = "With add-port: the port's rate in Gb/s (default: the rate it had)")
    String rateGbps;

    @Option(names = "--overwrite", description = "With capture PORT start FILE: replace FILE if it exists (a regular file you may write; default: refuse)")
    boolean overwrite;

    @Option(names = "--wait", description = "With add-port: add the port even if its interface does not exist yet; it comes up once the interface does (default: refuse it)")
    boolean waitForInterface;

    @Option(names = "--all", description = "With show: every setting, the simulator's too (default: those a live switch uses)")
    boolean all;

    @Parameters(index = "0", paramLabel = "COMMAND", completionCandidates = CommandNames.class,
        description = "help | show [macs] | set KEY VALUE | reload | del-port N | add-port N@IFACE | capture PORT start FILE | capture PORT stop | stop")
    String command;

    @Parameters(index = "1..*", paramLabel = "ARG", completionCandidates = ArgumentWords.class, description = "The command's arguments")
    List<String> arguments = new ArrayList<>();

    /** What the shell offers for COMMAND. */
    static final class CommandNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("help", "show", "set", "reload", "add-port", "del-port", "capture", "stop").iterator();
        }
    }

    /** What the shell offers after it: show's table, set's keys, capture's verbs. */
    static final class ArgumentWords implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            final List<String> words = new ArrayList<>(List.of("macs", "start"));
            SwitchControl.LIVE_KEYS.forEach(key -> words.add(key.replace(".N.", ".0.")));
            return words.iterator();
        }
    }

    @Override
    public Integer call() throws Exception {
        final List<String> words = new ArrayList<>();
        words.add(command);
        words.addAll(arguments);
        final PrintWriter out = spec.commandLine().getOut();
        if ("help".equals(command)) {
            if (!arguments.isEmpty()) {
                throw new ConfigException("usage: ctl help");
            }
            out.print(help());
            out.flush();
            return 0;
        }
        if (socket != null && counters != null) {
            throw new ConfigException("give --socket or --counters, not both");
        }
        for (final Path given : new Path[] {socket, counters}) {
            if (given != null && given.toString().isBlank()) {
                throw new ConfigException("--socket and --counters must name a file, got an empty name");
            }
        }
        final Path target = socket != null ? socket
            : ControlPaths.forCounters(counters != null ? CountersByName.find(counters)
                : LiveSettings.findInRunDirectory(LiveSettings.defaultCountersFile().getFileName().toString()));
        if (rateGbps != null) {
            if (!"add-port".equals(words.get(0))) {
                throw new ConfigException("--rate-gbps goes with add-port only");
            }
            words.add("--rate-gbps");
            words.add(rateGbps);
        }
        if (waitForInterface) {
            if (!"add-port".equals(words.get(0))) {
                throw new ConfigException("--wait goes with add-port only");
            }
            words.add("--wait");
        }
        if (all) {
            if (!"show".equals(words.get(0)) || words.size() != 1) {
                throw new ConfigException("--all goes with show only");
            }
            words.add("--all");
        }
        if (overwrite && !(words.size() == 4 && "capture".equals(words.get(0)) && "start".equals(words.get(2)))) {
            throw new ConfigException("--overwrite goes with capture PORT start FILE only");
        }
        // The switch runs elsewhere: a capture's file is named from here.
        if (words.size() == 4 && "capture".equals(words.get(0)) && "start".equals(words.get(2))) {
            try {
                words.set(3, Path.of(words.get(3)).toAbsolutePath().toString());
            } catch (final java.nio.file.InvalidPathException e) {
                throw new ConfigException("capture: '" + words.get(3) + "' is not a file name: " + e.getReason());
            }
        }
        if (overwrite) {
            words.add("--overwrite");
        }
        if (java.nio.file.Files.exists(target) && !isSocket(target)) {
            throw new ConfigException(target + " is not a control socket (a file of another kind): 'trimswitch run' makes its socket at"
                + " /run/trimswitch/NAME.ctl, or where --control says");
        }
        final ControlProtocol.Reply reply = ControlClient.send(target, words);
        if (!reply.ok()) {
            throw new ConfigException(reply.error());
        }
        out.println(json ? new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(reply.data()) : reply.text());
        out.flush();
        return 0;
    }

    private static boolean isSocket(final Path file) {
        try {
            // S_IFSOCK in the file's mode: a socket, whatever its name.
            return ((Integer) java.nio.file.Files.getAttribute(file, "unix:mode") & 0170000) == 0140000;
        } catch (final java.io.IOException | UnsupportedOperationException e) {
            return true;
        }
    }

    /** The commands a switch takes, one a line with what it does: from the switch's own list. */
    static String help() {
        final List<String[]> entries = new ArrayList<>(SwitchControl.HELP);
        entries.add(new String[] {"help", "this list"});
        final int width = entries.stream().mapToInt(entry -> entry[0].length()).max().orElse(0);
        final StringBuilder text = new StringBuilder("Commands of 'trimswitch ctl COMMAND' (to this network namespace's switch, or --counters FILE|NAME, --socket SOCKET):\n");
        for (final String[] entry : entries) {
            text.append(String.format("  %-" + width + "s  %s%n", entry[0], entry[1]));
        }
        // The keys, wrapped as a paragraph of their own.
        final StringBuilder line = new StringBuilder("Keys set takes (N a port):");
        for (final String key : SwitchControl.LIVE_KEYS) {
            if (line.length() + key.length() + 2 > 100) {
                text.append(line).append('\n');
                line.setLength(0);
                line.append("  ");
            }
            line.append(line.length() > 2 ? " " : "").append(key);
        }
        return text.append(line).append('\n').toString();
    }
}
