package io.trimswitch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.HostPorts;
import io.trimswitch.dataplane.codec.NdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code trimswitch gen}: trimmable traffic from real sockets. {@code send} paces NDP-style datagrams (the
 * shim behind UDP, trimmable by the switch, marked with the trimmable DSCP) to a host; {@code receive}
 * counts, per sending socket, what arrived whole, what arrived trimmed to its header, and the gaps.
 * Each datagram carries its flow and a 32-bit sequence number right behind the shim, inside the bytes a
 * trim keeps, so a header still says which packet it was.
 */
@Command(
    addMethodSubcommands = false,
    name = "gen",
    mixinStandardHelpOptions = true,
    description = {"Sends trimmable datagrams through the switch, or receives them and reports what arrived per flow.",
        "The receiver counts, per flow, whole packets, trimmed headers and gaps."},
    subcommands = {GenCommand.Send.class, GenCommand.Receive.class})
public final class GenCommand implements Runnable {
    /** Payload bytes: the NDP shim, then the flow and the 32-bit sequence number. */
    static final int SEQUENCE_OFFSET = NdpHeader.LENGTH;
    static final int FLOW_OFFSET = NdpHeader.LENGTH + Integer.BYTES;
    static final int MIN_PAYLOAD = NdpHeader.LENGTH + 2 * Integer.BYTES;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "send", addMethodSubcommands = false, mixinStandardHelpOptions = true, sortOptions = false, description = "Sends COUNT trimmable datagrams at RATE packets per second.")
    static final class Send implements Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--to", required = true, paramLabel = "HOST:PORT", description = "The receiver (its UDP port 666 makes the switch see NDP)")
        String to;

        @Option(names = "--count", paramLabel = "N", description = "Datagrams to send (default: 1000)")
        long count = 1000;

        @Option(names = "--rate", paramLabel = "PPS", description = "Datagrams per second (default: 10000)")
        double rate = 10_000;

        @Option(names = "--size", paramLabel = "BYTES", description = "UDP payload bytes (default: 1400)")
        int size = 1400;

        @Option(names = "--flow", paramLabel = "ID", description = "Flow number carried in every datagram (default: 0)")
        int flow;

        @Option(names = "--dscp", paramLabel = "DSCP", description = "DSCP of the datagrams (default: 10, trimmable)")
        int dscp = 10;

        @Option(names = "--bind", paramLabel = "HOST[:PORT]", description = "Local address to send from (default: any)")
        String bind;

        @Override
        public Integer call() throws IOException {
            if (count < 1) {
                throw new ConfigException("--count must be at least 1, got " + count);
            }
            if (!(rate > 0 && rate <= 1e9)) {
                throw new ConfigException("--rate must be above 0 and at most 1000000000 datagrams/s, got " + rate);
            }
            if (size < MIN_PAYLOAD || size > 65_000) {
                throw new ConfigException("--size must be " + MIN_PAYLOAD + "..65000 bytes (the shim, flow and sequence need " + MIN_PAYLOAD + "), got " + size);
            }
            if (dscp < 0 || dscp > 63) {
                throw new ConfigException("--dscp must be 0..63, got " + dscp);
            }
            if (flow < 0) {
                throw new ConfigException("--flow must be 0.." + Integer.MAX_VALUE + ", got " + flow);
            }
            final InetSocketAddress target = HostPorts.parse("--to", to);
            final ByteBuffer payload = ByteBuffer.allocateDirect(size);
            final UnsafeBuffer view = new UnsafeBuffer(payload);
            NdpHeader.write(view, 0, NdpHeader.FLAG_DATA, 0, 0);
            view.putInt(FLOW_OFFSET, flow, ByteOrder.BIG_ENDIAN);
            final long gapNanos = (long) (1e9 / rate);
            try (DatagramChannel channel = DatagramChannel.open()) {
                channel.setOption(StandardSocketOptions.IP_TOS, dscp << 2);
                channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
                if (bind != null) {
                    bind(channel, "--bind", bind.contains(":") ? HostPorts.parse("--bind", bind) : HostPorts.parse("--bind", bind + ":0"));
                }
                try {
                    channel.connect(target);
                } catch (final IOException e) {
                    throw new ConfigException("--to " + to + ": cannot send there: " + message(e));
                }
                final long start = System.nanoTime();
                // A closed port at the receiver answers with ICMP, which the next write reports: counted, and the load goes on.
                long refused = 0;
                for (long sequence = 0; sequence < count; sequence++) {
                    final long due = start + sequence * gapNanos;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        if (wait > 50_000) {
                            LockSupport.parkNanos(wait - 20_000);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                    view.putShort(NdpHeader.SEQUENCE_FIELD_OFFSET, (short) sequence, ByteOrder.BIG_ENDIAN);
                    view.putInt(SEQUENCE_OFFSET, (int) sequence, ByteOrder.BIG_ENDIAN);
                    payload.clear();
                    try {
                        channel.write(payload);
                    } catch (final java.net.PortUnreachableException e) {
                        refused++;
                    }
                }
                final double seconds = (System.nanoTime() - start) / 1e9;
                final PrintWriter out = spec.commandLine().getOut();
                out.printf(Locale.ROOT, "gen: sent %d datagrams of %d B to %s as flow %d in %.3f s (%.0f/s)%s%n", count - refused, size, target,
                    flow, seconds, count / Math.max(seconds, 1e-9),
                    refused == 0 ? "" : "; " + refused + " more refused by the receiver (ICMP port unreachable: nothing listens there)");
                out.flush();
            }
            return 0;
        }
    }

    @Command(name = "receive", addMethodSubcommands = false, mixinStandardHelpOptions = true, sortOptions = false,
        description = "Receives datagrams and reports, per flow, whole packets, trimmed headers and gaps.")
    static final class Receive implements Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--bind", paramLabel = "HOST:PORT", description = "Where to listen (default: 0.0.0.0:666)")
        String bind = "0.0.0.0:666";

        @Option(names = "--idle-s", paramLabel = "S", description = "Stop once nothing has arrived for S seconds, after the first datagram (default: 2)")
        double idleSeconds = 2;

        @Option(names = "--expect", paramLabel = "N", description = "Stop as soon as N datagrams have arrived")
        Long expect;

        @Option(names = "--timeout-s", paramLabel = "S", description = "Stop after S seconds whatever happened (default: 120)")
        double timeoutSeconds = 120;

        @Option(names = "--json", paramLabel = "FILE", description = "Write the per-flow report as JSON, to standard output for '-' (the table then goes to standard error)")
        Path json;

        @Override
        public Integer call() throws IOException {
            if (!(idleSeconds > 0 && idleSeconds <= 86_400)) {
                throw new ConfigException("--idle-s must be above 0 and at most 86400, got " + idleSeconds);
            }
            if (!(timeoutSeconds > 0 && timeoutSeconds <= 86_400)) {
                throw new ConfigException("--timeout-s must be above 0 and at most 86400, got " + timeoutSeconds);
            }
            if (expect != null && expect < 1) {
                throw new ConfigException("--expect must be at least 1, got " + expect);
            }
            if (json != null) {
                OutputFiles.requireWritable("--json", json);
            }
            final InetSocketAddress local = HostPorts.parse("--bind", bind);
            final Map<String, Flow> flows = new LinkedHashMap<>();
            final ByteBuffer datagram = ByteBuffer.allocateDirect(65_536);
            final UnsafeBuffer view = new UnsafeBuffer(datagram);
            long received = 0;
            try (DatagramChannel channel = DatagramChannel.open()) {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, 16 << 20);
                bind(channel, "--bind", local);
                channel.configureBlocking(false);
                final long start = System.nanoTime();
                long last = start;
                while (true) {
                    datagram.clear();
                    final SocketAddress from = channel.receive(datagram);
                    final long now = System.nanoTime();
                    if (from == null) {
                        if ((received > 0 && now - last > idleSeconds * 1e9) || now - start > timeoutSeconds * 1e9) {
                            break;
                        }
                        LockSupport.parkNanos(50_000);
                        continue;
                    }
                    last = now;
                    received++;
                    final int length = datagram.position();
                    final String sender = from.toString();
                    final Flow flow = flows.computeIfAbsent(sender, Flow::new);
                    if (length < MIN_PAYLOAD) {
                        flow.foreign++;
                    } else {
                        final boolean trimmed = (NdpHeader.flags(view, 0) & NdpHeader.FLAG_CHOPPED) != 0;
                        flow.record(view.getInt(FLOW_OFFSET, ByteOrder.BIG_ENDIAN), view.getInt(SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN), trimmed);
                    }
                    if (expect != null && received >= expect) {
                        break;
                    }
                }
            }
            report(flows);
            return 0;
        }

        private void report(final Map<String, Flow> flows) throws IOException {
            final boolean jsonToStandardOutput = OutputFiles.isStandardOutput(this.json);
            final PrintWriter out = jsonToStandardOutput ? spec.commandLine().getErr() : spec.commandLine().getOut();
            out.printf(Locale.ROOT, "%-24s %6s %10s %10s %10s %10s %10s%n", "from", "flow", "packets", "whole", "trimmed", "gaps", "duplicates");
            final Map<String, Object> json = new LinkedHashMap<>();
            long whole = 0;
            long trimmed = 0;
            long gaps = 0;
            for (final Flow flow : flows.values()) {
                out.printf(Locale.ROOT, "%-24s %6d %10d %10d %10d %10d %10d%n", flow.sender, flow.id, flow.whole + flow.trimmed, flow.whole,
                    flow.trimmed, flow.gaps(), flow.duplicates);
                whole += flow.whole;
                trimmed += flow.trimmed;
                gaps += flow.gaps();
                json.put(flow.sender, Map.of("flow", flow.id, "whole", flow.whole, "trimmed", flow.trimmed, "gaps", flow.gaps(),
                    "duplicates", flow.duplicates, "highestSequence", flow.highest, "foreign", flow.foreign));
            }
            out.printf(Locale.ROOT, "gen: %d whole, %d trimmed to their header, %d missing%n", whole, trimmed, gaps);
            out.flush();
            if (this.json != null) {
                final String report = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(Map.of("flows", json, "whole", whole, "trimmed", trimmed, "gaps", gaps));
                if (jsonToStandardOutput) {
                    spec.commandLine().getOut().println(report);
                    spec.commandLine().getOut().flush();
                } else {
                    java.nio.file.Files.writeString(this.json, report);
                }
            }
        }
    }

    /** What one sending socket's datagrams did. */
    private static final class Flow {
        final String sender;
        final BitSet seen = new BitSet();
        int id;
        long whole;
        long trimmed;
        long duplicates;
        long foreign;
        long highest = -1;

        Flow(final String sender) {
            this.sender = sender;
        }

        void record(final int flow, final int sequence, final boolean wasTrimmed) {
            id = flow;
            if (sequence < 0 || seen.get(sequence)) {
                duplicates++;
                return;
            }
            seen.set(sequence);
            highest = Math.max(highest, sequence);
            if (wasTrimmed) {
                trimmed++;
            } else {
                whole++;
            }
        }

        /** Sequence numbers below the highest seen that never arrived, whole or trimmed. */
        long gaps() {
            return highest + 1 - seen.cardinality();
        }
    }

    private static void bind(final DatagramChannel channel, final String option, final InetSocketAddress address) {
        try {
            channel.bind(address);
        } catch (final IOException e) {
            throw new ConfigException(option + " " + address + ": cannot bind: " + message(e));
        }
    }

    private static String message(final Exception e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
