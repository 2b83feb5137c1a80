package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.report.SummaryTable;
import io.trimswitch.switching.record.RealTimeStats;
import io.trimswitch.evaluation.scenario.Scenarios;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.simulator.Transports;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code trimswitch scenario}: one workload through the virtual-time switch, under one or more mechanisms. Its options
 * are defined in code, not by annotations (see {@link OptionsInCode}): this is the command a user starts most, and
 * reading annotations was a fifth of its cold start.
 */
public final class ScenarioCommand extends OptionsInCode implements Callable<Integer> {
    /** A real-time run whose pipelines ran this far behind (switch time) gets a warning: about a T0. */
    private static final double LAG_WARNING_NS = 5000;

    private final SettingsFileOption config = group(new SettingsFileOption(), "config");

    private final OptionSpec pattern = option("--pattern", "PATTERN", String.class, "incast:N->K | mod16:N | shift | pairs:S->D,... (default: shift)");

    private final OptionSpec mechanisms = option(OptionSpec.builder("--mechanism").paramLabel("NAME").type(List.class).auxiliaryTypes(String.class)
        .parameterConsumer(new CommaSeparatedList()).description(Mechanism.labels(" | ") + "; several, comma-separated, run side by side (default: tofino,dod,ideal)"));

    private final OptionSpec transport = option("--transport", "ndp|uet|open-loop", String.class,
        "ndp: NDP hosts with pull pacing and retransmission, run until every flow completes; uet: Ultra Ethernet hosts (NSCC, SACKs and NACKs, "
            + "one per port; the data queues mark ECN), also until every flow completes; open-loop: senders blast and stop (default: ndp)");

    private final ClockOptions clockOptions = group(new ClockOptions(), "clock");

    private final OptionSpec compareVirtual = flag("--compare-virtual", "With --clock real: run each mechanism in virtual time too, in the next column (default: off)");

    private final OptionSpec packets = option("--packets", "N", Integer.class, "Data packets per flow (default: 1000)");

    private final OptionSpec initialWindow = option("--initial-window", "PACKETS", Integer.class,
        "NDP: packets sent at line rate before waiting for pulls (default: 1000); UET: a flow's first window (default: 1.5 bandwidth-delay products)");

    private final OptionSpec targetDelayUs = option("--target-delay-us", "US", Double.class,
        "UET: NSCC's target queuing delay, µs (default: 0.75 of the round trip)");

    private final OptionSpec ecn = option(OptionSpec.builder("--ecn").paramLabel("LO HI").hideParamSyntax(true).arity("2").type(List.class).auxiliaryTypes(Integer.class)
        .description("UET: data queues mark CE above LO packets, with a probability rising to 1 at HI (default: 0.2 and 0.8 bandwidth-delay products)"));

    private final OptionSpec ackBytes = option("--ack-bytes", "BYTES", Integer.class, "UET: a receiver acknowledges at least every BYTES received (default: 16384)");

    private final OptionSpec rtoUs = option("--rto-us", "US", Double.class,
        "UET: the retransmission timeout, µs (default: 15 µs and six drain times of a data queue)");

    private final OptionSpec cc = option("--cc", "sender|receiver|both", String.class,
        "UET: who paces a sender: its NSCC window (sender), its receiver's credit, pulled at the receiver's link rate (receiver, RCCC), or both (default: sender)");

    private final OptionSpec hosts = option("--hosts", "separate|shared", String.class,
        "NDP: each port's sending and receiving hosts are different machines, or one host per port (default: separate)");

    private final OptionSpec flowSizes = option("--flow-sizes", "FILE", String.class, "NDP: draw each flow's size in packets from this CSV file, one per line (default: every flow --packets long)");

    private final OptionSpec background = option("--background", "LOAD", Double.class,
        "NDP: every sending host also starts Poisson flows to random ports offering LOAD (0..1) of its line rate (default: 0)");

    private final OptionSpec backgroundUs = option("--background-us", "US", Double.class, "NDP: background flows arrive during the first US µs (default: 500)");

    private final OptionSpec packetBytes = option("--packet-bytes", "BYTES", Integer.class, "Data packet size on the wire, bytes (default: 1500)");

    private final OptionSpec durationUs = option("--duration-us", "US", Double.class,
        "Open loop: length of the run, µs (default: 500); NDP runs until every flow completes");

    private final OptionSpec endUs = option("--end-us", "US", Double.class,
        "NDP and UET: stop the run at US µs, htsim's -end; flows unfinished then are counted and listed (default: 100000, transport.maxDurationUs)");

    private final TrimControlOptions trimControl = group(new TrimControlOptions(), "trim-control");

    private final OptionSpec seed = option("--seed", "SEED", Long.class, "Seed for start jitter and the ideal switch's coin (default: 1)");

    private final OptionSpec noJitter = flag("--no-jitter", "Start every sender at time 0, phase-locked (default: off, a seeded offset within one packet time)");

    private final OptionSpec noIdeal = flag("--no-ideal", "Do not run the ideal switch alongside for trims-vs-ideal (default: off, it runs)");

    private final ReportFileOption json = group(new ReportFileOption(), "json");

    private final OptionSpec pcapDir = option("--pcap-dir", "DIR", Path.class,
        "Write what each port received and sent as pcaps, DIR/<mechanism>/portNN-{rx,tx}.pcap, ns timestamps (default: none)");

    private final OptionSpec jobs = option("--jobs", "N", Integer.class, "Virtual-time runs side by side (default: all of them)");

    ScenarioCommand() {
        group(new HelpOptions(), "help");
        model().name("scenario");
        model().usageMessage().sortOptions(false).description(
            "Runs a workload through the switch under several mechanisms and reports trims, DoD queues, goodput and latency.",
            "In virtual time, or in real time with --clock real.",
            "With no arguments: the worst case (shift, 16 parallel 4:1 incasts) of NDP flows under tofino next to dod and ideal.");
    }

    /** The table's first line: what ran, in words ("shift: 16 parallel 4:1 incasts, NDP flows of 1000 packets ..."). */
    static String title(final Settings s) {
        final int pipelines = s.fabric().pipelines();
        final int perPipeline = s.fabric().portsPerPipeline();
        final String pattern = s.workload().pattern().trim();
        final String shape;
        if (pattern.equals("shift")) {
            // Port p of every pipeline sends to port (p+1) mod G of pipeline 0: G receivers, each from one port per pipeline.
            shape = perPipeline + " parallel " + pipelines + ":1 incasts";
        } else if (pattern.startsWith("incast:")) {
            final String[] sides = pattern.substring("incast:".length()).split("->", 2);
            shape = counted(sides[0].trim(), "sender") + " into " + counted(sides[1].trim(), "port");
        } else if (pattern.startsWith("mod16:")) {
            shape = pattern.substring("mod16:".length()).trim() + " senders, sender i into port i mod 16";
        } else {
            shape = (pattern.split(",", -1).length) + " flows";
        }
        final Settings.TransportKind kind = s.transport().kind();
        final String transport = Settings.TransportKind.OPEN_LOOP.equals(kind) ? "open-loop senders"
            : kind.label().toUpperCase(java.util.Locale.ROOT) + " flows";
        return pattern + ": " + shape + ", " + transport + " of " + s.workload().packets() + " packets of " + s.workload().packetBytes() + " B, "
            + pipelines * perPipeline + " ports at " + java.math.BigDecimal.valueOf(s.fabric().portRateGbps()).stripTrailingZeros().toPlainString()
            + " Gb/s, " + (s.realTime() ? "real time" : "virtual time") + ", seed " + s.workload().seed();
    }

    /** {@code "1 port"}, {@code "16 ports"}. */
    private static String counted(final String number, final String noun) {
        return number + " " + noun + ("1".equals(number) ? "" : "s");
    }

    @Override
    public Integer call() {
        final Settings settings;
        try {
            settings = withOverrides(config.load()).validate();
            Transports.forKind(settings.transport().kind());
        } catch (final ConfigException refused) {
            throw OptionKeys.SCENARIO.named(refused, model());
        }
        final List<Mechanism> toRun = new ArrayList<>();
        json.checkWritable();
        final boolean realClock = settings.realTime();
        final List<String> named = mechanisms.getValue();
        if (named != null) {
            for (final String name : named) {
                final Mechanism mechanism = Mechanism.parse(name);
                if (!toRun.contains(mechanism)) {
                    toRun.add(mechanism);
                }
            }
        } else if (config.given()) {
            toRun.add(settings.mechanism());
        } else {
            toRun.add(Mechanism.TOFINO);
            toRun.add(Mechanism.DOD);
            if (!realClock) {
                // In real time the ideal switch runs alongside in virtual time, as the reference.
                toRun.add(Mechanism.IDEAL);
            }
        }
        final Integer threadCap = jobs.getValue();
        if (threadCap != null && threadCap < 1) {
            throw new ConfigException("--jobs must be at least 1, got " + threadCap);
        }
        // A scenario has a few runs of unequal length: one thread each lets the host share its cores out evenly, where a
        // thread per core leaves one core idle while the other works through the last two runs (15 % longer for the
        // default three on two cores).
        final int threads = threadCap != null ? threadCap : Integer.MAX_VALUE;
        final Path captures = pcapDir.getValue();
        final Scenarios.Result result;
        try (OutputFolder held = captures == null ? null
            : OutputFolder.claim("--pcap-dir", captures, "scenario", false, model().commandLine().getErr())) {
            result = Scenarios.run(settings, toRun, !set(noIdeal), captures, threads, transportSettings(settings));
        }
        final List<RunReport> reports = new ArrayList<>(result.runs());
        if (set(compareVirtual) && realClock) {
            final List<RunReport> references = Scenarios.run(settings.withClock(Settings.Clock.VIRTUAL), toRun, false, null, threads, null).runs();
            for (int i = references.size() - 1; i >= 0; i--) {
                reports.add(i + 1, references.get(i));
            }
        }
        final List<RunReport> shown = new ArrayList<>(reports);
        if (result.idealReference() != null) {
            shown.add(result.idealReference());
        }
        final PrintWriter text = json.text(model().commandLine().getOut(), model().commandLine().getErr());
        text.println(title(settings));
        text.print(SummaryTable.render(shown));
        if (result.idealReference() != null) {
            text.println("(the ideal run is the reference for trims vs ideal)");
        }
        listUnfinished(text, shown, settings.transport().maxDurationUs());
        text.flush();
        json.write(reports.size() == 1 ? reports.get(0) : reports, model().commandLine().getOut());
        for (final RunReport report : shown) {
            final RealTimeStats realTime = report.run().realTime();
            // The shards keep the model's order however late they are, so lag changes no count: it says the run was slower
            // than its dilation promised, and the longest gap between a thread's turns says why (the host preempted it).
            if (realTime != null && realTime.threads() > 1 && realTime.maxIngressLagNs() > LAG_WARNING_NS) {
                model().commandLine().getErr().printf("trimswitch: the host fell behind the %s run by up to %.0f ns of switch time"
                    + " (a shard's thread once went %.0f µs of host time without a turn), so it ran slower than its dilation;"
                    + " try a larger --dilation than %s%n", report.mechanism(), realTime.maxIngressLagNs(),
                    realTime.maxTurnGapNs() * realTime.dilation() / 1000, realTime.dilation());
            }
            if (!report.conservation()) {
                model().commandLine().getErr().println("trimswitch: packet conservation violated in the " + report.mechanism() + " run: "
                    + report.sent() + " sent != " + report.deliveredWhole() + " whole + " + report.deliveredHeader()
                    + " headers + " + report.dropped() + " dropped");
                return TrimswitchCommand.EXIT_RUN_FAILED;
            }
        }
        return 0;
    }

    /**
     * The hosts' settings: the transport's block from the file ({@code transport.settings}) with the options given over
     * it, read and checked by the transport. The options only UET hosts read are refused for others, naming the option.
     * Null: the transport's defaults.
     */
    private TransportSettings transportSettings(final Settings settings) {
        final java.util.Map<String, Object> block = fileBlock(settings);
        final OptionSpec[] uetOnly = {targetDelayUs, ecn, ackBytes, rtoUs, cc};
        if (!settings.uet()) {
            for (final OptionSpec option : uetOnly) {
                if (given(option)) {
                    throw new ConfigException(option.longestName() + " applies to UET hosts: add --transport uet");
                }
            }
            return block.isEmpty() ? null : Transports.named(settings.transport().kind().label()).settings(block);
        }
        if (given(hosts)) {
            throw new ConfigException("--hosts applies to NDP hosts: UET hosts are one per port");
        }
        override(block, "targetDelayUs", targetDelayUs);
        override(block, "rtoUs", rtoUs);
        override(block, "initialWindowPackets", initialWindow);
        override(block, "cc", cc);
        override(block, "ackBytes", ackBytes);
        override(block, "ecn", ecn);
        return Transports.named(settings.transport().kind().label()).settings(block);
    }

    /** The file's block for the transport, refused where no transport reads it or a key has no value. */
    private java.util.Map<String, Object> fileBlock(final Settings settings) {
        final java.util.Map<String, Object> block = new java.util.LinkedHashMap<>(settings.transport().settings());
        // The real clock runs open-loop senders whatever the file's transport: its block waits for the virtual clock.
        if (!block.isEmpty() && Settings.TransportKind.OPEN_LOOP.equals(settings.transport().kind()) && !clockOptions.real()) {
            throw new ConfigException("transport.settings is a transport's own block: open-loop senders have none (transport.kind "
                + settings.transport().kind().label() + ")");
        }
        for (final java.util.Map.Entry<String, Object> entry : block.entrySet()) {
            if (entry.getValue() == null) {
                throw new ConfigException("transport.settings." + entry.getKey() + " has no value");
            }
        }
        return block;
    }

    /** An option given takes the place of the file's value for {@code key}. */
    private void override(final java.util.Map<String, Object> block, final String key, final OptionSpec option) {
        if (given(option)) {
            block.put(key, option.getValue());
        }
    }

    /**
     * The options given, over the settings from the file or the defaults. A choice is read in the order the settings
     * are written, so that of two wrong ones the same is named first as in a file.
     */
    private Settings withOverrides(final Settings settings) {
        return trimControl.queues(withWorkload(clockOptions.realTimeOptions(withTransport(trimControl.control(clockOptions.clock(settings))))));
    }

    private Settings withTransport(final Settings settings) {
        Settings s = settings;
        if (clockOptions.real() && !given(transport)) {
            // Real time runs open-loop senders.
            s = s.withOpenLoop();
        }
        if (given(transport)) {
            final Settings.TransportKind kind = Settings.TransportKind.of(transport.getValue());
            s = s.withTransport(t -> t.withKind(kind));
        }
        if (given(initialWindow) && !s.uet()) {
            s = s.withTransport(t -> t.withInitialWindowPackets(initialWindow.getValue()));
        }
        if (given(hosts)) {
            final Settings.HostLayout layout = Settings.choice("transport.hosts", hosts.getValue(), Settings.HostLayout.values());
            s = s.withTransport(t -> t.withHosts(layout));
        }
        if (given(flowSizes)) {
            s = s.withTransport(t -> t.withFlowSizes(flowSizes.getValue()));
        }
        if (given(background)) {
            s = s.withTransport(t -> t.withBackgroundLoad(background.getValue()));
        }
        if (given(backgroundUs)) {
            s = s.withTransport(t -> t.withBackgroundUs(backgroundUs.getValue()));
        }
        if (given(endUs)) {
            final double end = endUs.getValue();
            if (!(end > 0 && end <= 8_000_000) || Settings.TransportKind.OPEN_LOOP.equals(s.transport().kind())) {
                throw new ConfigException(Settings.TransportKind.OPEN_LOOP.equals(s.transport().kind())
                    ? "--end-us applies to NDP and UET hosts: open-loop senders run for --duration-us"
                    : "--end-us must be above 0 and at most 8000000 µs (eight seconds of switch time), got " + end);
            }
            // Background flows arrive before the end, unless the options say otherwise (and are then refused in one line).
            final double background = given(backgroundUs) ? s.transport().backgroundUs() : Math.min(s.transport().backgroundUs(), end);
            s = s.withTransport(t -> t.withMaxDurationUs(end).withBackgroundUs(background));
        }
        return s;
    }

    /** Each run's flows that had not finished when it ended, after the table: counted there, named here. */
    private static void listUnfinished(final PrintWriter text, final List<RunReport> runs, final double endUs) {
        for (final RunReport r : runs) {
            if (r.flowsCompleted() == null || r.flowsCompleted() == r.flows().size()) {
                continue;
            }
            text.printf("unfinished at %.1f µs in the %s run: %d of %d flows%n", endUs, r.mechanism(), r.flows().size() - r.flowsCompleted(),
                r.flows().size());
            for (final RunReport.FlowReport f : r.flows()) {
                if (f.size() != null && f.completionNs() == null) {
                    text.printf("  %d->%d  %d of %d packets arrived whole%n", f.src(), f.dst(), f.whole(), f.size());
                }
            }
        }
    }

    private Settings withWorkload(final Settings settings) {
        Settings s = settings;
        if (given(pattern)) {
            s = s.withWorkload(w -> w.withPattern(pattern.getValue()));
        }
        if (given(packets)) {
            s = s.withWorkload(w -> w.withPackets(packets.getValue()));
        }
        if (given(packetBytes)) {
            s = s.withWorkload(w -> w.withPacketBytes(packetBytes.getValue()));
        }
        if (given(durationUs)) {
            s = s.withWorkload(w -> w.withDurationUs(durationUs.getValue()));
        }
        if (given(seed)) {
            s = s.withWorkload(w -> w.withSeed(seed.getValue()));
        }
        if (set(noJitter)) {
            s = s.withWorkload(w -> w.withStartJitter(false));
        }
        return s;
    }
}
