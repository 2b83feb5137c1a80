package io.trimswitch.evaluate;

import io.trimswitch.config.ConfigException;
import io.trimswitch.report.ReportJson;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code trimswitch evaluate}: runs the experiments of the reproduced evaluation in virtual time and
 * writes one JSON per run, a CSV per experiment, a PNG and SVGs per figure and an index page.
 */
public final class Evaluation {
    /** How long an experiment took, and how many runs it made. */
    public record Timing(String experiment, int runs, double seconds) {
    }

    private Evaluation() {
    }

    public static List<Experiment> experiments() {
        return List.of(new MechanismsExperiment(), new SweepExperiment(), new RobustnessExperiment(), new ResponseExperiment(),
            new SensitivityExperiment(), new SummaryExperiment(), new FabricExperiment());
    }

    public static String names() {
        return experiments().stream().map(Experiment::name).collect(Collectors.joining(", "));
    }

    /** Picks the experiments {@code --only} names, in the evaluation's order; null or empty means all. */
    public static List<Experiment> select(final List<String> only) {
        if (only == null || only.isEmpty()) {
            return experiments();
        }
        final List<Experiment> chosen = new ArrayList<>();
        for (final String name : only) {
            final Experiment experiment = experiments().stream().filter(e -> e.name().equals(name.trim())).findFirst()
                .orElseThrow(() -> new ConfigException("unknown experiment '" + name.trim() + "': expected one of " + names()));
            if (chosen.stream().noneMatch(e -> e.name().equals(experiment.name()))) {
                chosen.add(experiment);
            }
        }
        chosen.sort((a, b) -> Integer.compare(order(a), order(b)));
        return chosen;
    }

    private static int order(final Experiment experiment) {
        final List<Experiment> all = experiments();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).name().equals(experiment.name())) {
                return i;
            }
        }
        return all.size();
    }

    public static List<Timing> run(final Path out, final List<Experiment> experiments, final int threads, final boolean progress, final PrintWriter log) {
        prepare(out);
        final List<Timing> timings = new ArrayList<>();
        final Map<Experiment, List<Figure>> figures = new LinkedHashMap<>();
        SummaryExperiment summary = null;
        final int totalRuns = experiments.stream().mapToInt(e -> e.plan().size()).sum();
        try (EvaluationRunner runner = new EvaluationRunner(threads);
             ProgressBar bar = progress ? new ProgressBarBuilder().setTaskName("evaluate").setInitialMax(totalRuns)
                 .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).build() : null) {
            for (final Experiment experiment : experiments) {
                if (bar != null) {
                    bar.setExtraMessage(experiment.name());
                }
                final long start = System.nanoTime();
                final List<RunSpec> specs = experiment.plan();
                final Map<String, RunResult> results = runner.run(specs, bar);
                final Path runs = Files.createDirectories(out.resolve("runs").resolve(experiment.name()));
                for (final RunResult result : results.values()) {
                    ReportJson.write(runs.resolve(result.spec().id() + ".json"), result.json());
                }
                figures.put(experiment, experiment.write(results, out));
                final Timing timing = new Timing(experiment.name(), specs.size(), (System.nanoTime() - start) / 1e9);
                timings.add(timing);
                if (experiment instanceof SummaryExperiment done) {
                    summary = done;
                }
            }
        } catch (final IOException e) {
            throw new ConfigException("cannot write results to " + out + ": " + e.getMessage());
        }
        for (final Timing timing : timings) {
            log.printf(Locale.ROOT, "%-12s %4d runs  %6.1f s%n", timing.experiment(), timing.runs(), timing.seconds());
        }
        if (summary != null) {
            log.println();
            log.print(summary.markdown());
        }
        try {
            ReportJson.write(out.resolve("timings.json"), timings);
            Files.writeString(out.resolve("index.html"), IndexPage.render(figures, summary == null ? null : summary.markdown(), timings));
        } catch (final IOException e) {
            throw new ConfigException("cannot write results to " + out + ": " + e.getMessage());
        }
        log.println("wrote " + out.resolve("index.html"));
        log.flush();
        return timings;
    }

    /** Creates the output directory and proves it writable before any run starts. */
    private static void prepare(final Path out) {
        try {
            Files.createDirectories(out);
            final Path probe = Files.createTempFile(out, ".write-test", ".tmp");
            Files.delete(probe);
        } catch (final IOException | SecurityException e) {
            throw new ConfigException("cannot write results to " + out + ": " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
    }
}
