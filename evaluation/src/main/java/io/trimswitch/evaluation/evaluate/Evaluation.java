package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.IoReason;
import io.trimswitch.switching.report.ReportJson;
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
            new SensitivityExperiment(), new SummaryExperiment(), new FabricExperiment(), new UetDesignsExperiment());
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

    /** Runs the whole evaluation of {@code experiments} and writes its results to {@code out}. */
    public static List<Timing> run(final Path out, final List<Experiment> experiments, final int threads, final boolean progress, final PrintWriter log) {
        prepare(out);
        final int totalRuns = experiments.stream().mapToInt(e -> e.plan().size()).sum();
        try (EvaluationRunner runner = new EvaluationRunner(threads);
             ProgressBar bar = progressBar(progress, totalRuns)) {
            return report(out, experiments, log, (experiment, specs) -> {
                if (bar != null) {
                    bar.setExtraMessage(experiment.name());
                }
                final long start = System.nanoTime();
                final Map<String, RunResult> results = runner.run(specs, bar);
                writeRuns(out, experiment, results);
                return new Ran(results, (System.nanoTime() - start) / 1e9);
            });
        }
    }

    /**
     * Runs only the runs that fall to {@code shard} and writes their JSON to {@code out}, with the shard's
     * {@code shard.json}; {@link #merge} makes the report, plots and index from every shard's directory.
     */
    public static void runShard(final Path out, final List<Experiment> experiments, final Shard shard, final int threads,
        final boolean progress, final PrintWriter log) {
        prepare(out);
        final List<List<RunSpec>> owned = new ArrayList<>();
        int number = 0;
        int ownedRuns = 0;
        for (final Experiment experiment : experiments) {
            final List<RunSpec> mine = new ArrayList<>();
            for (final RunSpec spec : experiment.plan()) {
                if (shard.owns(number++)) {
                    mine.add(spec);
                }
            }
            owned.add(mine);
            ownedRuns += mine.size();
        }
        final Map<String, Double> seconds = new LinkedHashMap<>();
        try (EvaluationRunner runner = new EvaluationRunner(threads);
             ProgressBar bar = progressBar(progress, ownedRuns)) {
            for (int i = 0; i < experiments.size(); i++) {
                final Experiment experiment = experiments.get(i);
                if (bar != null) {
                    bar.setExtraMessage(experiment.name());
                }
                final long start = System.nanoTime();
                final Map<String, RunResult> results = runner.run(owned.get(i), bar);
                writeRuns(out, experiment, results);
                for (final RunResult result : results.values()) {
                    if (result.timeline() != null) {
                        ShardFiles.writeTimeline(out, experiment.name(), result.spec().id(), result.timeline());
                    }
                }
                seconds.put(experiment.name(), (System.nanoTime() - start) / 1e9);
            }
        }
        ShardFiles.writeManifest(out, new ShardFiles.Manifest(shard.index(), shard.count(),
            experiments.stream().map(Experiment::name).toList(), ShardFiles.fingerprint(experiments), ownedRuns, seconds));
        log.printf(Locale.ROOT, "shard %s: %d of %d runs%n", shard, ownedRuns, number);
        log.println("wrote " + out.resolve(ShardFiles.MANIFEST));
        log.flush();
    }

    /**
     * Reads the directories of every shard of one evaluation and writes to {@code out} the report, plots and JSON a whole
     * run writes (the runs' JSON copied as their shards wrote them). Timings add up each experiment's time over its shards.
     */
    public static List<Timing> merge(final Path out, final List<Path> shardDirs, final PrintWriter log) {
        if (shardDirs.isEmpty()) {
            throw new ConfigException("--merge needs the shards' directories");
        }
        final List<ShardFiles.Manifest> manifests = new ArrayList<>();
        for (final Path dir : shardDirs) {
            manifests.add(ShardFiles.readManifest(dir));
        }
        final ShardFiles.Manifest first = manifests.get(0);
        final Path[] byShard = new Path[first.of() + 1];
        for (int i = 0; i < manifests.size(); i++) {
            final ShardFiles.Manifest manifest = manifests.get(i);
            if (manifest.of() != first.of() || !manifest.evaluation().equals(first.evaluation())
                || !manifest.experiments().equals(first.experiments())) {
                throw new ConfigException("--merge: " + shardDirs.get(i) + " is a shard of another evaluation than " + shardDirs.get(0)
                    + " (other experiments, settings, shard count or build)");
            }
            if (manifest.shard() < 1 || manifest.shard() > first.of()) {
                throw new ConfigException("--merge: " + shardDirs.get(i) + " claims shard " + manifest.shard() + " of " + manifest.of());
            }
            if (byShard[manifest.shard()] != null) {
                throw new ConfigException("--merge: " + shardDirs.get(i) + " and " + byShard[manifest.shard()] + " are both shard "
                    + manifest.shard() + "/" + first.of());
            }
            byShard[manifest.shard()] = shardDirs.get(i);
        }
        for (int shard = 1; shard <= first.of(); shard++) {
            if (byShard[shard] == null) {
                throw new ConfigException("--merge: shard " + shard + "/" + first.of() + " is missing");
            }
        }
        final List<Experiment> experiments = select(first.experiments());
        if (!ShardFiles.fingerprint(experiments).equals(first.evaluation())) {
            throw new ConfigException("--merge: the shards were made with other settings or another build than this one");
        }
        prepare(out);
        final int[] number = {0};
        return report(out, experiments, log, (experiment, specs) -> {
            final Map<String, RunResult> results = new LinkedHashMap<>();
            final Path runs = Files.createDirectories(out.resolve("runs").resolve(experiment.name()));
            for (final RunSpec spec : specs) {
                final Path dir = byShard[Shard.ownerOf(number[0]++, first.of())];
                final ShardFiles.StoredRun stored = ShardFiles.readRun(dir, experiment.name(), spec);
                results.put(spec.id(), stored.result());
                final Path copy = runs.resolve(spec.id() + ".json");
                if (!Files.exists(copy) || !Files.isSameFile(copy, dir.resolve("runs").resolve(experiment.name()).resolve(spec.id() + ".json"))) {
                    Files.write(copy, stored.json());
                }
            }
            double seconds = 0;
            for (final ShardFiles.Manifest manifest : manifests) {
                seconds += manifest.seconds().getOrDefault(experiment.name(), 0.0);
            }
            return new Ran(results, seconds);
        });
    }

    /** An experiment's results, and how long its runs took. */
    private record Ran(Map<String, RunResult> results, double seconds) {
    }

    private interface Runs {
        Ran of(Experiment experiment, List<RunSpec> specs) throws IOException;
    }

    /** Gets each experiment's results from {@code runs}, then writes its tables and plots, the summary and the index. */
    private static List<Timing> report(final Path out, final List<Experiment> experiments, final PrintWriter log, final Runs runs) {
        final List<Timing> timings = new ArrayList<>();
        final Map<Experiment, List<Figure>> figures = new LinkedHashMap<>();
        SummaryExperiment summary = null;
        try {
            for (final Experiment experiment : experiments) {
                final long start = System.nanoTime();
                final List<RunSpec> specs = experiment.plan();
                final Ran ran = runs.of(experiment, specs);
                figures.put(experiment, experiment.write(ran.results(), out));
                final double drawing = (System.nanoTime() - start) / 1e9;
                timings.add(new Timing(experiment.name(), specs.size(), Math.max(ran.seconds(), drawing)));
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

    private static void writeRuns(final Path out, final Experiment experiment, final Map<String, RunResult> results) {
        final Path runs = out.resolve("runs").resolve(experiment.name());
        for (final RunResult result : results.values()) {
            ReportJson.write(runs.resolve(result.spec().id() + ".json"), result.json());
        }
    }

    private static ProgressBar progressBar(final boolean progress, final int runs) {
        return progress ? new ProgressBarBuilder().setTaskName("evaluate").setInitialMax(runs)
            .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).build() : null;
    }

    /** Creates the output directory and proves it writable before any run starts. */
    private static void prepare(final Path out) {
        try {
            try {
                Files.createDirectories(out);
            } catch (final IOException e) {
                throw new ConfigException("cannot write results to " + out + ": the folder cannot be made (" + IoReason.of(e) + ")");
            }
            final Path probe = Files.createTempFile(out, ".write-test", ".tmp");
            Files.delete(probe);
        } catch (final IOException e) {
            throw new ConfigException("cannot write results to " + out + ": " + IoReason.of(e));
        } catch (final SecurityException e) {
            throw new ConfigException("cannot write results to " + out + ": " + e.getMessage());
        }
    }
}
