package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.evaluation.evaluate.Evaluation;
import io.trimswitch.evaluation.evaluate.Shard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code trimswitch evaluate}: the reproduced evaluation, with plots, in one command, or in shards on several machines. */
@Command(
    addMethodSubcommands = false,
    name = "evaluate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Runs the evaluation's experiments in virtual time and writes their reports, CSVs, plots and index.html.",
        "The experiments: mechanisms, sweep, robustness, response, sensitivity, summary, fabric, uet. It writes one JSON per run, a CSV per experiment, PNG and SVG plots and index.html.",
        "On several machines: each runs 'evaluate --shard I/N --out DIR_I', then one runs 'evaluate --merge DIR_1 ... DIR_N'."})
public final class EvaluateCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory the results go to. Default: ${DEFAULT-VALUE}")
    Path out = Path.of("results");

    @Option(names = "--only", parameterConsumer = CommaSeparatedList.class, paramLabel = "NAME",
        description = "Run only these experiments: mechanisms, sweep, robustness, response, sensitivity, summary, fabric, uet. Default: all of them")
    List<String> only;

    @Option(names = "--jobs", paramLabel = "N", description = "Runs side by side, in threads. Default: the host's cores")
    Integer jobs;

    @Option(names = "--quiet", description = "No progress bar. Default: a progress bar on a terminal")
    boolean quiet;

    @Option(names = "--shard", paramLabel = "I/N",
        description = "Run only shard I of N (runs go round robin to the shards) and write their JSON and shard.json to --out,"
            + " for --merge. Default: the whole evaluation")
    String shard;

    @Option(names = "--merge", arity = "1..*", paramLabel = "DIR",
        description = "Read the directories of every shard of one evaluation and write the whole evaluation's report, plots and JSON to --out."
            + " Runs nothing. Default: off")
    List<Path> merge;

    @Override
    public Integer call() {
        if (jobs != null && jobs < 1) {
            throw new ConfigException("--jobs must be at least 1, got " + jobs);
        }
        final PrintWriter log = spec.commandLine().getOut();
        if (merge != null) {
            if (shard != null || only != null) {
                throw new ConfigException("--merge takes the shards' experiments from their directories: give neither --shard nor --only");
            }
            // Merging into one of the shards' own folders keeps that shard's files: they are among the merge's inputs.
            final boolean intoAShard = merge.stream().anyMatch(dir -> dir.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()));
            try (OutputFolder held = OutputFolder.claim("--out", out, "evaluate", intoAShard, spec.commandLine().getErr())) {
                Evaluation.merge(out, merge, log);
            }
            return 0;
        }
        final Shard part = shard == null ? null : Shard.parse(shard);
        final var experiments = Evaluation.select(only);
        final int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        final boolean progress = !quiet && System.console() != null;
        try (OutputFolder held = OutputFolder.claim("--out", out, "evaluate", false, spec.commandLine().getErr())) {
            if (part != null) {
                Evaluation.runShard(out, experiments, part, threads, progress, log);
            } else {
                Evaluation.run(out, experiments, threads, progress, log);
            }
        }
        return 0;
    }
}
