package io.trimswitch.evaluation.evaluate;

import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.run.NetworkReportBuilder;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.ParallelRuns;
import io.trimswitch.simulator.TimelineProbe;
import io.trimswitch.simulator.VirtualTimeSwitch;
import me.tongfei.progressbar.ProgressBar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Runs independent virtual-time runs on a pool of threads, one switch or one network per run, and ticks a progress bar. */
final class EvaluationRunner implements AutoCloseable {
    /** Timelines sample the DoD queues every half microsecond. */
    static final long TIMELINE_SAMPLE_PICOS = Picos.PER_MICRO / 2;

    private final ExecutorService executor;

    EvaluationRunner(final int threads) {
        this.executor = Executors.newFixedThreadPool(threads, runnable -> {
            final Thread thread = new Thread(runnable, "evaluate");
            thread.setDaemon(true);
            return thread;
        });
    }

    Map<String, RunResult> run(final List<RunSpec> specs, final ProgressBar progress) {
        final List<Callable<RunResult>> runs = new ArrayList<>();
        for (final RunSpec spec : specs) {
            runs.add(() -> {
                final RunResult result = runOne(spec);
                if (progress != null) {
                    progress.step();
                }
                return result;
            });
        }
        final Map<String, RunResult> results = new LinkedHashMap<>();
        for (final RunResult result : ParallelRuns.all(executor, runs)) {
            if (results.put(result.spec().id(), result) != null) {
                throw new IllegalStateException("two runs share the id " + result.spec().id());
            }
        }
        return results;
    }

    private static RunResult runOne(final RunSpec spec) {
        if (spec.htsim() != null) {
            final HtsimRun htsim = spec.htsim();
            final NetworkRun network = htsim.network();
            final HtsimReport report = NetworkReportBuilder.build(network, network.run(), htsim.experiment());
            if (!report.conservation()) {
                throw new IllegalStateException("packet conservation violated in run " + spec.id());
            }
            return new RunResult(spec, null, null, null, report);
        }
        if (spec.network() != null) {
            final NetworkRun network = NetworkRun.of(spec.network());
            final NetworkReport report = NetworkReportBuilder.build(network, network.run(), spec.network());
            if (!report.conservation()) {
                throw new IllegalStateException("packet conservation violated in run " + spec.id());
            }
            return new RunResult(spec, null, null, report);
        }
        final VirtualTimeSwitch sw = new VirtualTimeSwitch(spec.settings().validate());
        TimelineProbe probe = null;
        if (spec.timeline()) {
            probe = new TimelineProbe(TIMELINE_SAMPLE_PICOS);
            sw.record(probe);
        }
        RunReport report = ReportBuilder.build(sw.run());
        if (!report.conservation()) {
            throw new IllegalStateException("packet conservation violated in run " + spec.id());
        }
        if (!spec.keepArrivals()) {
            report = ReportBuilder.withoutArrivals(report);
        }
        return new RunResult(spec, report, probe);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
