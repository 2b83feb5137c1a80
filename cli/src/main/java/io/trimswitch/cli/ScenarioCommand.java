package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.report.RunReport;
import io.trimswitch.report.SummaryTable;
import io.trimswitch.runtime.RealTimeStats;
import io.trimswitch.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code trimswitch scenario}: one workload through the virtual-time switch, under one or more mechanisms. */
@Command(
    name = "scenario",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Runs a workload through the switch (virtual time, or real time with --clock real) and reports trims, DoD queues, goodput and latency.",
        "With no arguments: the worst case (shift, 16 parallel 4:1 incasts) of NDP flows under tofino next to dod and ideal."})
public final class ScenarioCommand implements Callable<Integer> {
    /** A real-time run whose pipelines ran this far behind (switch time) gets a warning: about a T0. */
    private static final double LAG_WARNING_NS = 5000;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsFileOption config;

    @Option(names = "--pattern", description = "incast:N->K | mod16:N | shift | pairs:S->D,... (default: shift)")
    String pattern;

    @Option(names = "--mechanism", split = ",", paramLabel = "NAME",
        description = "ideal | mod | dod | tofino | tofino2; several, comma-separated, run side by side (default: tofino,dod,ideal)")
    List<String> mechanisms;

    @Option(names = "--transport", paramLabel = "ndp|open-loop",
        description = "ndp: NDP hosts with pull pacing and retransmission, run until every flow completes; open-loop: senders blast and stop (default: ndp)")
    String transport;

    @Mixin
    ClockOptions clockOptions = new ClockOptions();

    @Option(names = "--compare-virtual", description = "With --clock real: run each mechanism in virtual time too, in the next column.")
    boolean compareVirtual;

    @Option(names = "--packets", description = "Data packets per flow (default: 1000)")
    Integer packets;

    @Option(names = "--initial-window", paramLabel = "PACKETS", description = "NDP: packets sent at line rate before waiting for pulls (default: 1000)")
    Integer initialWindow;

    @Option(names = "--hosts", paramLabel = "separate|shared",
        description = "NDP: each port's sending and receiving hosts are different machines, or one host per port (default: separate)")
    String hosts;

    @Option(names = "--flow-sizes", paramLabel = "FILE.csv", description = "NDP: draw each flow's size in packets from this CSV (one per line)")
    String flowSizes;

    @Option(names = "--background", paramLabel = "LOAD",
        description = "NDP: every sending host also starts Poisson flows to random ports offering LOAD (0..1) of its line rate (default: 0)")
    Double background;

    @Option(names = "--background-us", paramLabel = "US", description = "NDP: background flows arrive during the first US µs (default: 500)")
    Double backgroundUs;

    @Option(names = "--packet-bytes", description = "Data packet size on the wire, bytes (default: 1500)")
    Integer packetBytes;

    @Option(names = "--duration-us", description = "Open loop: length of the run, µs (default: 500); NDP runs until every flow completes")
    Double durationUs;

    @Option(names = "--t0-us", description = "Pessimistic period after a NOTIFY, µs (default: 6)")
    Double t0Us;

    @Option(names = "--t1-us", description = "End of the halftimistic period after a NOTIFY, µs (default: 24)")
    Double t1Us;

    @Option(names = "--notify", description = "all | origin: pipelines a congestion NOTIFY reaches (default: all)")
    String notify;

    @Option(names = "--signal", description = "every | backlog: deflected packets that raise a signal (default: every)")
    String signal;

    @Option(names = "--signal-backlog", description = "With --signal backlog: DoD packets that must wait behind (default: 1)")
    Integer signalBacklog;

    @Option(names = "--no-halftimistic", description = "Go from pessimistic straight back to optimistic.")
    boolean noHalftimistic;

    @Option(names = "--pessimistic-rate", paramLabel = "GBPS", description = "Meter rate while pessimistic, Gb/s; 0 trims everything (default: R/4)")
    Double pessimisticRate;

    @Option(names = "--halftimistic-rate", paramLabel = "GBPS", description = "Meter rate while halftimistic, Gb/s (default: R/2)")
    Double halftimisticRate;

    @Option(names = "--meters", description = "three | two: meter profile (default: three)")
    String meters;

    @Option(names = "--data-queue", paramLabel = "PACKETS", description = "Data queue capacity per egress port (default: 16)")
    Integer dataQueue;

    @Option(names = "--header-queue", paramLabel = "PACKETS", description = "Header queue capacity per egress port (default: 1024)")
    Integer headerQueue;

    @Option(names = "--dod-queue", paramLabel = "PACKETS", description = "DoD queue capacity per pipeline (default: 16384)")
    Integer dodQueue;

    @Option(names = "--return-to-sender", description = "Send headers that meet a full header queue back to their sender.")
    boolean returnToSender;

    @Option(names = "--seed", description = "Seed for start jitter and the ideal switch's coin (default: 1)")
    Long seed;

    @Option(names = "--no-jitter", description = "Start every sender at time 0 (phase-locked).")
    boolean noJitter;

    @Option(names = "--no-ideal", description = "Do not run the ideal switch alongside for trims-vs-ideal.")
    boolean noIdeal;

    @Mixin
    ReportFileOption json;

    @Option(names = "--pcap-dir", paramLabel = "DIR", description = "Write what each port received and sent as pcaps, DIR/<mechanism>/portNN-{rx,tx}.pcap.")
    Path pcapDir;

    @Option(names = "--jobs", description = "Virtual-time runs side by side (default: all of them)")
    Integer jobs;

    @Override
    public Integer call() {
        final SwitchSettings settings = config.load();
        applyOverrides(settings);
        final List<Mechanism> toRun = new ArrayList<>();
        json.checkWritable();
        final boolean realClock = settings.validate().realTime();
        if (mechanisms != null) {
            if (mechanisms.isEmpty() || mechanisms.stream().anyMatch(String::isBlank)) {
                throw new ConfigException("--mechanism takes one or more of " + Mechanism.labels() + " separated by commas, got '"
                    + String.join(",", mechanisms) + "'");
            }
            for (final String name : mechanisms) {
                final Mechanism mechanism = Mechanism.parse(name);
                if (!toRun.contains(mechanism)) {
                    toRun.add(mechanism);
                }
            }
        } else if (config.given()) {
            toRun.add(Mechanism.parse(settings.mechanism));
        } else {
            toRun.add(Mechanism.TOFINO);
            toRun.add(Mechanism.DOD);
            if (!realClock) {
                // In real time the ideal switch runs alongside in virtual time, as the reference.
                toRun.add(Mechanism.IDEAL);
            }
        }
        if (jobs != null && jobs < 1) {
            throw new ConfigException("--jobs must be at least 1, got " + jobs);
        }
        // A scenario has a few runs of unequal length: one thread each lets the host share its cores out evenly, where a
        // thread per core leaves one core idle while the other works through the last two runs (15 % longer for the
        // default three on two cores).
        final int threads = jobs != null ? jobs : Integer.MAX_VALUE;
        final Scenarios.Result result = Scenarios.run(settings, toRun, !noIdeal, pcapDir, threads);
        final List<RunReport> reports = new ArrayList<>(result.runs());
        if (compareVirtual && realClock) {
            final SwitchSettings virtual = settings.copy();
            virtual.clock = Settings.Clock.VIRTUAL.label();
            final List<RunReport> references = Scenarios.run(virtual, toRun, false, null, threads).runs();
            for (int i = references.size() - 1; i >= 0; i--) {
                reports.add(i + 1, references.get(i));
            }
        }
        final List<RunReport> shown = new ArrayList<>(reports);
        if (result.idealReference() != null) {
            shown.add(result.idealReference());
        }
        spec.commandLine().getOut().print(SummaryTable.render(shown));
        if (result.idealReference() != null) {
            spec.commandLine().getOut().println("(the ideal run is the reference for trims vs ideal)");
        }
        spec.commandLine().getOut().flush();
        json.write(reports.size() == 1 ? reports.get(0) : reports);
        for (final RunReport report : shown) {
            final RealTimeStats realTime = report.run().realTime();
            // One thread runs in lockstep, so lag does not change its results; several threads meet only through rings.
            if (realTime != null && realTime.threads() > 1 && realTime.maxIngressLagNs() > LAG_WARNING_NS) {
                spec.commandLine().getErr().printf("trimswitch: the host fell behind the %s run by up to %.0f ns of switch time,"
                    + " so it is less faithful; try a larger --dilation than %s%n", report.mechanism(), realTime.maxIngressLagNs(),
                    realTime.dilation());
            }
            if (!report.conservation()) {
                spec.commandLine().getErr().println("trimswitch: packet conservation violated in the " + report.mechanism() + " run: "
                    + report.sent() + " sent != " + report.deliveredWhole() + " whole + " + report.deliveredHeader()
                    + " headers + " + report.dropped() + " dropped");
                return TrimswitchCommand.EXIT_RUN_FAILED;
            }
        }
        return 0;
    }

    /** The options given, over the settings from the file or the defaults. */
    private void applyOverrides(final SwitchSettings s) {
        applyClockAndTransport(s);
        applyWorkload(s);
        applyControl(s);
        applyQueues(s);
    }

    private void applyClockAndTransport(final SwitchSettings s) {
        if (clockOptions.applyTo(s) && transport == null) {
            // Real time runs open-loop senders.
            s.transport.kind = "open-loop";
        }
        if (transport != null) {
            s.transport.kind = transport;
        }
        if (initialWindow != null) {
            s.transport.initialWindowPackets = initialWindow;
        }
        if (hosts != null) {
            s.transport.hosts = hosts;
        }
        if (flowSizes != null) {
            s.transport.flowSizes = flowSizes;
        }
        if (background != null) {
            s.transport.backgroundLoad = background;
        }
        if (backgroundUs != null) {
            s.transport.backgroundUs = backgroundUs;
        }
    }

    private void applyWorkload(final SwitchSettings s) {
        if (pattern != null) {
            s.workload.pattern = pattern;
        }
        if (packets != null) {
            s.workload.packets = packets;
        }
        if (packetBytes != null) {
            s.workload.packetBytes = packetBytes;
        }
        if (durationUs != null) {
            s.workload.durationUs = durationUs;
        }
        if (seed != null) {
            s.workload.seed = seed;
        }
        if (noJitter) {
            s.workload.startJitter = false;
        }
    }

    private void applyControl(final SwitchSettings s) {
        if (t0Us != null) {
            s.control.t0Us = t0Us;
        }
        if (t1Us != null) {
            s.control.t1Us = t1Us;
        }
        if (notify != null) {
            s.control.notify = notify;
        }
        if (signal != null) {
            s.control.signal = signal;
        }
        if (signalBacklog != null) {
            s.control.signalBacklog = signalBacklog;
        }
        if (noHalftimistic) {
            s.control.halftimistic = false;
        }
        if (pessimisticRate != null) {
            s.control.pessimisticRateGbps = pessimisticRate;
        }
        if (halftimisticRate != null) {
            s.control.halftimisticRateGbps = halftimisticRate;
        }
        if (meters != null) {
            s.control.meters = meters;
        }
    }

    private void applyQueues(final SwitchSettings s) {
        if (dataQueue != null) {
            s.fabric.dataQueuePackets = dataQueue;
        }
        if (headerQueue != null) {
            s.fabric.headerQueuePackets = headerQueue;
        }
        if (dodQueue != null) {
            s.recirculation.dodQueuePackets = dodQueue;
        }
        if (returnToSender) {
            s.trim.returnToSender = true;
        }
    }
}
