package io.trimswitch.cli;

import io.trimswitch.switching.report.ReportJson;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.nio.file.Path;

/** Where a command writes its JSON report, the same for every command that makes one. */
final class ReportFileOption extends OptionGroup {
    private final OptionSpec json = option("--json", "FILE", Path.class,
        "Write the report as JSON, to standard output for '-' (the table then goes to standard error): one object for one run, an array for several (default: none)");

    /** Before anything runs: a report that could not be written fails now, not after the run. */
    void checkWritable() {
        final Path file = json.getValue();
        if (file != null) {
            OutputFiles.requireWritable("--json", file);
        }
    }

    /** {@code --json -}: standard output carries the JSON alone, so that it can be piped. */
    boolean toStandardOutput() {
        return OutputFiles.isStandardOutput(json.getValue());
    }

    /** Where the command's table goes: standard output, unless the JSON goes there. */
    PrintWriter text(final PrintWriter out, final PrintWriter err) {
        return toStandardOutput() ? err : out;
    }

    void write(final Object reports, final PrintWriter out) {
        final Path file = json.getValue();
        if (toStandardOutput()) {
            out.println(ReportJson.toJson(reports));
            out.flush();
        } else if (file != null) {
            ReportJson.write(file, reports);
        }
    }
}
