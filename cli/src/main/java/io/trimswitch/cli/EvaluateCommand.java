package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.evaluate.Evaluation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code trimswitch evaluate}: the reproduced evaluation, with plots, in one command. */
@Command(
    addMethodSubcommands = false,
    name = "evaluate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Runs the evaluation in virtual time — mechanisms, sweep, robustness, response, sensitivity, summary, fabric — and writes",
        "one JSON per run, a CSV per experiment, PNG and SVG plots and index.html."})
public final class EvaluateCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the results go (default: results)")
    Path out = Path.of("results");

    @Option(names = "--only", parameterConsumer = CommaSeparatedList.class, paramLabel = "NAME", description = "Run only these experiments: mechanisms, sweep, robustness, response, sensitivity, summary, fabric")
    List<String> only;

    @Option(names = "--jobs", paramLabel = "N", description = "Runs side by side (default: the host's cores)")
    Integer jobs;

    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @Override
    public Integer call() {
        if (jobs != null && jobs < 1) {
            throw new ConfigException("--jobs must be at least 1, got " + jobs);
        }
        OutputFiles.requireFolder("--out", out);
        final var experiments = Evaluation.select(only);
        final int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        final PrintWriter log = spec.commandLine().getOut();
        Evaluation.run(out, experiments, threads, !quiet && System.console() != null, log);
        return 0;
    }
}
