package io.trimswitch.evaluation.evaluate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One experiment of the evaluation: the runs it needs, then its tables and plots from their results. */
public interface Experiment {
    /** The name {@code --only} takes. */
    String name();

    List<RunSpec> plan();

    /** Writes the experiment's CSVs and plots into {@code dir} and returns the figures for the index. */
    List<Figure> write(Map<String, RunResult> results, Path dir) throws IOException;
}
