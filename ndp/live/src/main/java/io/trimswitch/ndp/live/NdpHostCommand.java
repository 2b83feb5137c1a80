package io.trimswitch.ndp.live;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.HostPorts;
import io.trimswitch.simulator.TransportLiveCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code trimswitch host}: an NDP end host on real UDP sockets, running the simulator's NDP state machines on the
 * host clock. With {@code --listen} it receives (ACK, NACK of trimmed headers, PULLs paced at its link's rate); with
 * {@code --connect} it sends flows (initial window at line rate, then one packet per PULL, sprayed over source ports).
 * NDP's live command ({@link NdpLiveCommand}): the tool finds it by its name and never names it.
 */
@Command(
    addMethodSubcommands = false,
    name = NdpHostCommand.NAME,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {"Runs an NDP end host on UDP sockets: a receiver (--listen) or a sender of flows (--connect).",
        "The simulator's NDP hosts, on the host clock.",
        "Data is marked with the trimmable DSCP (10), ACK/NACK/PULL with the trimmed one (11). Prints per flow the FCT, bytes, goodput, "
            + "retransmissions and headers. Exit 0: every flow completed; 1: a peer fell silent or a flow did not complete; 2: bad input."})
final class NdpHostCommand implements Callable<Integer> {
    /** The subcommand's name, as a user types it. */
    static final String NAME = "host";

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", description = "Receive on this address (port 666 makes the switch see NDP); one of --listen or --connect is required")
    String listen;

    @Option(names = "--connect", paramLabel = "ADDR:PORT", description = "Send to the receiver at this address; one of --listen or --connect is required")
    String connect;

    @Option(names = "--rate-gbps", paramLabel = "R", description = "This host's link rate: the sender's pace, the receiver's pull rate (default: 1)")
    double rateGbps = 1;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the per-flow results as JSON, to standard output for '-' (the table then goes to standard error) (default: none)")
    Path json;

    @Option(names = "--duration-s", paramLabel = "S", description = "Receiver: stop after S seconds. Sender: send new data for S seconds "
        + "(without --size, flows as long as the link sends in S), then finish what was sent and report what was delivered "
        + "(default: the receiver runs until stopped or --expect-flows, the sender until its flows are sent)")
    Double durationS;

    @Option(names = "--expect-flows", paramLabel = "N", description = "Receiver: stop shortly after N flows have completed or given up (default: only after --duration-s or when stopped)")
    Integer expectFlows;

    @Option(names = "--size", paramLabel = "BYTES", description = "Sender: bytes per flow; --size, --flow-sizes or --duration-s is required")
    Long size;

    @Option(names = "--flows", paramLabel = "N", description = "Sender: parallel flows of --size bytes (default: 1)")
    Integer flows;

    @Option(names = "--flow-sizes", paramLabel = "FILE", description = "Sender: a CSV file, one flow per line, its size in bytes (first column) (default: --flows flows of --size)")
    Path flowSizes;

    @Option(names = "--spray", paramLabel = "K", description = "Sender: spray each flow's packets over K paths (K source ports) (default: 1)")
    int spray = 1;

    @Option(names = "--payload-bytes", paramLabel = "N", description = "Data bytes per packet, 1.." + SenderSettings.MAX_PAYLOAD
        + " (" + SenderSettings.STANDARD_MTU_PAYLOAD + ": 1500-byte IP packets, a standard MTU; " + SenderSettings.MAX_PAYLOAD
        + ": 9000-byte ones, a jumbo MTU; never fragmented); the receiver paces its PULLs for packets of this size "
        + "(default: " + SenderSettings.DEFAULT_PAYLOAD + ", which fits vxlan's 1450-byte MTU)")
    int payloadBytes = SenderSettings.DEFAULT_PAYLOAD;

    @Option(names = "--window", paramLabel = "PACKETS", description = "Sender: initial window, sent at line rate (default: 30)")
    int window = 30;

    @Option(names = "--rto-ms", paramLabel = "MS", description = "Sender: retransmission timeout (default: 10)")
    double rtoMs = 10;

    @Option(names = "--start-at", paramLabel = "UNIX_S", description = "Sender: start the flows at this wall-clock instant, in seconds "
        + "since 1970 (as `date +%%s.%%N` prints it), so that senders started one after another begin together (default: at once)")
    Double startAt;

    @Option(names = "--timeout-s", paramLabel = "S", description = "Give up on a peer silent this long (default: 5)")
    double timeoutS = 5;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if ((listen == null) == (connect == null)) {
            throw new ConfigException("give either --listen ADDR:PORT (receiver) or --connect ADDR:PORT (sender)");
        }
        if (!(rateGbps > 0 && rateGbps <= 400)) {
            throw new ConfigException("--rate-gbps must be above 0 and at most 400, got " + rateGbps);
        }
        if (!(timeoutS > 0 && timeoutS <= 86_400)) {
            throw new ConfigException("--timeout-s must be above 0 and at most 86400, got " + timeoutS);
        }
        if (payloadBytes < 1 || payloadBytes > SenderSettings.MAX_PAYLOAD) {
            throw new ConfigException("--payload-bytes must be 1.." + SenderSettings.MAX_PAYLOAD + " (a 9000-byte MTU), got " + payloadBytes);
        }
        if (durationS != null && !(durationS > 0 && durationS <= 31_536_000)) {
            throw new ConfigException("--duration-s must be above 0 and at most 31536000, got " + durationS);
        }
        if (json != null && !isStandardOutput(json)) {
            final Path parent = json.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new ConfigException("--json " + json + ": no such directory " + parent);
            }
        }
        return listen != null ? receive() : send();
    }

    private int receive() throws IOException, InterruptedException {
        refuse(size != null, "--size");
        refuse(flows != null, "--flows");
        refuse(flowSizes != null, "--flow-sizes");
        refuse(spray != 1, "--spray");
        refuse(startAt != null, "--start-at");
        if (expectFlows != null && (expectFlows < 1 || expectFlows > ReceiverSettings.DEFAULT_MAX_FLOWS)) {
            throw new ConfigException("--expect-flows must be 1.." + ReceiverSettings.DEFAULT_MAX_FLOWS + ", got " + expectFlows);
        }
        final ReceiverSettings settings = new ReceiverSettings(HostPorts.parse("--listen", listen), rateGbps,
            durationS == null ? 0 : (long) (durationS * 1e9), expectFlows == null ? 0 : expectFlows, (long) (timeoutS * 1e9),
            payloadBytes, ReceiverSettings.CONTROL_DSCP, ReceiverSettings.DEFAULT_MAX_FLOWS);
        final NdpReceivingHost host = new NdpReceivingHost(settings, spec.commandLine().getErr());
        // Stopped by a signal, the receiver still reports what it received.
        final ReportOnSignal onSignal = new ReportOnSignal(host::stop, 5);
        try {
            final HostReport report;
            try {
                text().printf("host: receiving on %s, pulling at %s Gb/s%n", HostDatagram.name(settings.listen()), rateGbps);
                text().flush();
                report = host.run();
            } catch (final BindException e) {
                throw new ConfigException("--listen " + listen + ": cannot bind: " + e.getMessage());
            }
            finish(report);
            if (host.unfinished() > 0) {
                spec.commandLine().getErr().println("trimswitch: host: " + host.unfinished() + " of " + report.flows().size()
                    + " flows did not complete");
                return TransportLiveCommand.EXIT_FELL_SHORT;
            }
            return 0;
        } finally {
            onSignal.reported();
        }
    }

    private int send() throws IOException, InterruptedException {
        refuse(expectFlows != null, "--expect-flows");
        if (spray < 1 || spray > 256) {
            throw new ConfigException("--spray must be 1..256 paths, got " + spray);
        }
        if (window < 1) {
            throw new ConfigException("--window must be at least 1 packet, got " + window);
        }
        if (!(rtoMs > 0 && rtoMs <= 60_000)) {
            throw new ConfigException("--rto-ms must be above 0 and at most 60000, got " + rtoMs);
        }
        final long startInMillis = startAt == null ? 0 : millisUntil(startAt);
        final long[] sizes = flowSizes();
        final SenderSettings settings;
        try {
            settings = new SenderSettings(HostPorts.parse("--connect", connect), sizes, rateGbps, spray, window, (long) (rtoMs * 1e6),
                (long) (timeoutS * 1e9), payloadBytes, SenderSettings.TRIMMABLE_DSCP, durationS == null ? 0 : (long) (durationS * 1e9));
        } catch (final IllegalArgumentException e) {
            final boolean sizedByDuration = durationS != null && size == null && flowSizes == null;
            throw new ConfigException(sizedByDuration ? "--duration-s " + durationS + ": " + e.getMessage() : e.getMessage());
        }
        final NdpSendingHost host = new NdpSendingHost(settings);
        if (startInMillis > 0) {
            // Before the shutdown hook: a signal during the wait ends the process with nothing sent and nothing to report.
            Thread.sleep(startInMillis);
        }
        // Stopped by a signal, the sender cuts its flows short, waits for their last ACKs, and still reports.
        final ReportOnSignal onSignal = new ReportOnSignal(host::stop, 10);
        try {
            final HostReport report = host.run();
            finish(report);
            return report.allComplete() ? 0 : unfinished(report);
        } catch (final java.net.SocketException e) {
            // No route, an address this host cannot send to, packets over the path's MTU: the command line named them.
            final String tooLong = String.valueOf(e.getMessage()).contains("too long")
                ? " (" + (payloadBytes + HostDatagram.HEADER_LENGTH + 8 + 20) + "-byte IP packets: lower --payload-bytes to fit the path's MTU)" : "";
            throw new ConfigException("--connect " + connect + ": cannot send there: " + e.getMessage() + tooLong);
        } catch (final PeerSilent silent) {
            finish(silent.report());
            spec.commandLine().getErr().println("trimswitch: host: " + silent.getMessage());
            return TransportLiveCommand.EXIT_FELL_SHORT;
        } finally {
            onSignal.reported();
        }
    }

    private int unfinished(final HostReport report) {
        final long unfinished = report.flows().stream().filter(flow -> !flow.complete()).count();
        spec.commandLine().getErr().println("trimswitch: host: " + unfinished + " of " + report.flows().size()
            + " flows were not acknowledged after the sender stopped");
        return TransportLiveCommand.EXIT_FELL_SHORT;
    }

    private long[] flowSizes() {
        if (flowSizes != null) {
            refuse(size != null, "--size", "--flow-sizes");
            refuse(flows != null, "--flows", "--flow-sizes");
            return readSizes(flowSizes);
        }
        if (size == null && durationS != null) {
            return longLivedFlows();
        }
        if (size == null) {
            throw new ConfigException("a sender needs --size BYTES, --flow-sizes FILE or --duration-s S");
        }
        if (size < 1) {
            throw new ConfigException("--size must be at least 1 byte, got " + size);
        }
        final int count = flows == null ? 1 : flows;
        if (count < 1 || count > 65_536) {
            throw new ConfigException("--flows must be 1..65536, got " + count);
        }
        final long[] sizes = new long[count];
        Arrays.fill(sizes, size);
        return sizes;
    }

    /**
     * Flows that outlast --duration-s: each as long as the link sends in that time (and a window), so that the sender
     * keeps a byte of state per packet it may send, not per packet of an endless flow.
     */
    private long[] longLivedFlows() {
        final int count = flows == null ? 1 : flows;
        if (count < 1 || count > 65_536) {
            throw new ConfigException("--flows must be 1..65536, got " + count);
        }
        final double frameBits = 8.0 * (HostDatagram.FRAME_OVERHEAD + HostDatagram.HEADER_LENGTH + payloadBytes);
        final double packets = Math.ceil(rateGbps * 1e9 * durationS / frameBits) + window;
        if (packets * count > SenderSettings.MAX_PACKETS) {
            throw new ConfigException("--duration-s " + durationS + " at " + rateGbps + " Gb/s needs more than " + SenderSettings.MAX_PACKETS
                + " packets of state; give a shorter duration or --size");
        }
        final long[] sizes = new long[count];
        Arrays.fill(sizes, (long) packets * payloadBytes);
        return sizes;
    }

    /** One size in bytes per line (its first comma-separated column); blank lines and lines starting with # are skipped. */
    static long[] readSizes(final Path file) {
        final List<String> lines;
        try {
            lines = List.of(io.trimswitch.dataplane.io.InputFiles.text(file, io.trimswitch.dataplane.io.InputFiles.FLOW_PLAN).split("\r?\n|\r"));
        } catch (final io.trimswitch.dataplane.io.InputFiles.Refused e) {
            throw new ConfigException("--flow-sizes " + e.getMessage());
        }
        final List<Long> sizes = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String first = line.split(",", 2)[0].strip();
            final long bytes;
            try {
                bytes = io.trimswitch.config.WholeNumbers.parseLong(first);
            } catch (final NumberFormatException e) {
                throw new ConfigException("--flow-sizes " + file + " line " + (i + 1) + ": '" + first + "' is not a size in bytes");
            }
            if (bytes < 1) {
                throw new ConfigException("--flow-sizes " + file + " line " + (i + 1) + ": a flow's size must be at least 1 byte, got " + bytes);
            }
            sizes.add(bytes);
        }
        if (sizes.isEmpty()) {
            throw new ConfigException("--flow-sizes " + file + ": no flow sizes in it");
        }
        if (sizes.size() > 65_536) {
            throw new ConfigException("--flow-sizes " + file + ": " + sizes.size() + " flows; a sender has at most 65536");
        }
        return sizes.stream().mapToLong(Long::longValue).toArray();
    }

    private void finish(final HostReport report) throws IOException {
        report.printTable(text());
        if (isStandardOutput(json)) {
            spec.commandLine().getOut().println(report.json());
            spec.commandLine().getOut().flush();
        } else if (json != null) {
            try {
                report.writeJson(json);
            } catch (final IOException e) {
                throw new ConfigException("--json " + json + ": cannot write it (" + e.getMessage() + ")");
            }
        }
    }

    /** Where the tables go: standard output, unless the JSON goes there. */
    private PrintWriter text() {
        return isStandardOutput(json) ? spec.commandLine().getErr() : spec.commandLine().getOut();
    }

    /** How long until --start-at; an instant already past starts the flows at once, and says how late they are. */
    private long millisUntil(final double unixSeconds) {
        final double now = System.currentTimeMillis() / 1e3;
        if (!(unixSeconds > 0 && unixSeconds <= now + 86_400)) {
            throw new ConfigException("--start-at must be a time in seconds since 1970, at most a day from now (" + Math.round(now)
                + "), got " + unixSeconds);
        }
        if (unixSeconds < now) {
            spec.commandLine().getErr().printf(Locale.ROOT, "trimswitch: host: --start-at was %.3f s ago: starting at once%n",
                now - unixSeconds);
            spec.commandLine().getErr().flush();
            return 0;
        }
        return Math.round((unixSeconds - now) * 1e3);
    }

    /** A file option's value {@code -}: standard output, as in the tool's other commands. */
    private static boolean isStandardOutput(final Path file) {
        return file != null && "-".equals(file.toString());
    }

    private static void refuse(final boolean given, final String option) {
        if (given) {
            throw new ConfigException(option + " is for the other end: the receiver takes --listen, the sender --connect");
        }
    }

    private static void refuse(final boolean given, final String option, final String with) {
        if (given) {
            throw new ConfigException(option + " and " + with + " are exclusive: give one");
        }
    }

    /**
     * A shutdown hook for SIGINT/SIGTERM: it stops the host, then holds the JVM until the host has reported (at most
     * {@code seconds}), so that a signal still ends the run with its table and JSON.
     */
    private static final class ReportOnSignal {
        private final CountDownLatch reported = new CountDownLatch(1);
        private final Thread hook;

        ReportOnSignal(final Runnable stop, final long seconds) {
            hook = new Thread(() -> {
                stop.run();
                try {
                    reported.await(seconds, TimeUnit.SECONDS);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
        }

        /** The host has reported (or failed): the hook, if a signal started it, may let the JVM go; else it is removed. */
        void reported() {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (final IllegalStateException shuttingDown) {
                // The hook is what is running.
            }
        }
    }
}
