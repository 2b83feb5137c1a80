package io.trimswitch.evaluation.scenario;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.realtime.RealTimeSwitch;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.ParallelRuns;
import io.trimswitch.switching.capture.PortCaptures;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.simulator.TransportSettings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs one workload under several mechanisms, side by side on the host's cores, and sets each run's
 * trims against the ideal switch's (which it runs alongside unless told not to: it is cheap).
 */
public final class Scenarios {
    private Scenarios() {
    }

    /** The runs asked for, in order, and the ideal run added for reference (null when none was added). */
    public record Result(List<RunReport> runs, RunReport idealReference) {
        /** The asked-for runs followed by the reference run, for side-by-side tables. */
        public List<RunReport> all() {
            final List<RunReport> all = new ArrayList<>(runs);
            if (idealReference != null) {
                all.add(idealReference);
            }
            return all;
        }
    }

    /**
     * @param withIdeal add an {@code ideal} run for reference when none was asked for
     * @param pcapDir   per-mechanism captures under this directory, or null
     */
    public static Result run(
        final Settings base, final List<Mechanism> mechanisms, final boolean withIdeal, final Path pcapDir, final int threads) {
        return run(base, mechanisms, withIdeal, pcapDir, threads, null);
    }

    /** As above; a plug-in transport's hosts with its settings {@code transport} (null: its defaults). */
    public static Result run(final Settings base, final List<Mechanism> mechanisms, final boolean withIdeal, final Path pcapDir, final int threads,
        final TransportSettings transport) {
        final List<Mechanism> toRun = new ArrayList<>(mechanisms);
        final boolean idealAdded = withIdeal && !toRun.contains(Mechanism.IDEAL);
        if (idealAdded) {
            toRun.add(Mechanism.IDEAL);
        }
        if (base.validate().realTime() && pcapDir != null) {
            throw new ConfigException("--pcap-dir captures virtual-time runs only (use --clock virtual)");
        }
        // A virtual-time switch is built by the job that runs it: only as many are alive at once as run at once.
        final List<Settings> runs = new ArrayList<>();
        final List<Settings> virtualRuns = new ArrayList<>();
        final List<Settings> realRuns = new ArrayList<>();
        for (final Mechanism mechanism : toRun) {
            // The ideal switch is the output-queued model: the reference runs in virtual time.
            final Settings.Clock clock = idealAdded && mechanism == Mechanism.IDEAL ? Settings.Clock.VIRTUAL : base.clock();
            final Settings settings = base.withMechanism(mechanism).withClock(clock).validate();
            runs.add(settings);
            (settings.realTime() ? realRuns : virtualRuns).add(settings);
        }
        // Real-time runs need the host's cores to themselves: one after the other, before the rest.
        final List<RunReport> realReports = new ArrayList<>();
        for (final Settings settings : realRuns) {
            realReports.add(ReportBuilder.build(new RealTimeSwitch(settings).run()));
        }
        final List<RunReport> virtualReports = runAll(virtualRuns, pcapDir, threads, transport);
        final List<RunReport> reports = new ArrayList<>();
        int real = 0;
        int virtual = 0;
        for (final Settings settings : runs) {
            reports.add(settings.realTime() ? realReports.get(real++) : virtualReports.get(virtual++));
        }
        long idealTrims = -1;
        for (final RunReport report : reports) {
            if (report.mechanism().equals(Mechanism.IDEAL.label())) {
                idealTrims = report.trims().total();
            }
        }
        final List<RunReport> result = new ArrayList<>();
        for (final RunReport report : reports) {
            result.add(idealTrims < 0 ? report : ReportBuilder.withIdealReference(report, idealTrims));
        }
        if (idealAdded) {
            return new Result(List.copyOf(result.subList(0, mechanisms.size())), result.get(mechanisms.size()));
        }
        return new Result(List.copyOf(result), null);
    }

    private static List<RunReport> runAll(final List<Settings> switches, final Path pcapDir, final int threads, final TransportSettings transport) {
        final ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, switches.size())));
        try {
            final List<Callable<RunReport>> runs = new ArrayList<>();
            for (final Settings settings : switches) {
                runs.add(() -> runOne(new VirtualTimeSwitch(settings, transport), pcapDir));
            }
            return ParallelRuns.all(executor, runs);
        } finally {
            executor.shutdownNow();
        }
    }

    private static RunReport runOne(final VirtualTimeSwitch sw, final Path pcapDir) {
        if (pcapDir == null) {
            return ReportBuilder.build(sw.run());
        }
        try (PortCaptures captures = new PortCaptures(pcapDir.resolve(sw.mechanism().label()), sw.assembly().ports())) {
            sw.capture(captures);
            return ReportBuilder.build(sw.run());
        } finally {
            sw.capture(null);
        }
    }
}
