package io.trimswitch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;
import io.trimswitch.realtime.LiveSettings;
import io.trimswitch.control.ControlClient;
import io.trimswitch.control.ControlPaths;
import io.trimswitch.control.ControlProtocol;
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
        "Talks to a running switch through its control socket, as ovs-appctl does.",
        "'show' lists its ports and settings in force; 'set KEY VALUE' changes a setting that may change while it runs",
        "(trim.*, control.t0Us/t1Us, meters' and ports' rates); 'reload' reads its config file again; 'del-port N' and",
        "'add-port N@IFACE [--rate-gbps R]' move an interface port to another interface; 'capture PORT start FILE' and",
        "'capture PORT stop' write a port's frames to a pcapng while it runs; 'stop' stops it as SIGTERM does. A refused",
        "change leaves the switch as it was; its counters keep counting."})
public final class CtlCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--counters", paramLabel = "FILE",
        description = "The switch's counters file, as 'trimswitch run --counters' gave it: its control socket is named after it (default: this network namespace's switch)")
    Path counters;

    @Option(names = "--socket", paramLabel = "SOCKET", description = "The control socket itself, as 'trimswitch run --control' gave it (default: found from --counters)")
    Path socket;

    @Option(names = "--json", description = "Print the answer as JSON (default: a table or one line).")
    boolean json;

    @Option(names = "--rate-gbps", paramLabel = "R", description = "With add-port: the port's rate in Gb/s (default: the rate it had)")
    String rateGbps;

    @Option(names = "--overwrite", description = "With capture PORT start FILE: replace FILE if it exists (a regular file you may write; default: refuse)")
    boolean overwrite;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "show | set KEY VALUE | reload | del-port N | add-port N@IFACE [--rate-gbps R] | capture PORT start FILE | capture PORT stop | stop")
    List<String> words = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (socket != null && counters != null) {
            throw new ConfigException("give --socket or --counters, not both");
        }
        for (final Path given : new Path[] {socket, counters}) {
            if (given != null && given.toString().isBlank()) {
                throw new ConfigException("--socket and --counters must name a file, got an empty name");
            }
        }
        final Path target = socket != null ? socket
            : ControlPaths.forCounters(counters != null ? counters : LiveSettings.findInRunDirectory(LiveSettings.defaultCountersFile().getFileName().toString()));
        if (rateGbps != null) {
            if (!"add-port".equals(words.get(0))) {
                throw new ConfigException("--rate-gbps goes with add-port only");
            }
            words.add("--rate-gbps");
            words.add(rateGbps);
        }
        if (overwrite) {
            if (!(words.size() == 4 && "capture".equals(words.get(0)) && "start".equals(words.get(2)))) {
                throw new ConfigException("--overwrite goes with capture PORT start FILE only");
            }
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
        final ControlProtocol.Reply reply = ControlClient.send(target, words);
        if (!reply.ok()) {
            throw new ConfigException(reply.error());
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.println(json ? new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(reply.data()) : reply.text());
        out.flush();
        return 0;
    }
}
