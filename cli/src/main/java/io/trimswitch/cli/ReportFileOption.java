package io.trimswitch.cli;

import io.trimswitch.switching.report.ReportJson;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Path;

/** Where a command writes its JSON report, the same for every command that makes one. */
final class ReportFileOption extends OptionGroup {
    private final OptionSpec json = option("--json", "FILE", Path.class,
        "Write the report as JSON: one object for one run, an array for several (default: none)");

    /** Before anything runs: a report that could not be written fails now, not after the run. */
    void checkWritable() {
        final Path file = json.getValue();
        if (file != null) {
            OutputFiles.requireWritable("--json", file);
        }
    }

    void write(final Object reports) {
        final Path file = json.getValue();
        if (file != null) {
            ReportJson.write(file, reports);
        }
    }
}
