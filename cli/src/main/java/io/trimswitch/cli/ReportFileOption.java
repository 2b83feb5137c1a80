package io.trimswitch.cli;

import io.trimswitch.report.ReportJson;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where a command writes its JSON report, the same for every command that makes one. */
final class ReportFileOption {
    @Option(names = "--json", paramLabel = "FILE", description = "Write the report as JSON: one object for one run, an array for several.")
    Path file;

    /** Before anything runs: a report that could not be written fails now, not after the run. */
    void checkWritable() {
        if (file != null) {
            OutputFiles.requireWritable("--json", file);
        }
    }

    void write(final Object reports) {
        if (file != null) {
            ReportJson.write(file, reports);
        }
    }
}
