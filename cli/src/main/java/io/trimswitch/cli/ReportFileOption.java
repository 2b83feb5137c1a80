package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.htsim.HtsimReportJson;
import io.trimswitch.switching.report.ReportJson;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
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

    /** An htsim experiment's report is streamed: binding it as any other report would take more memory than a large run leaves. */
    void write(final Object reports, final PrintWriter out) {
        final Path file = json.getValue();
        if (toStandardOutput()) {
            out.println(reports instanceof HtsimReport htsim ? HtsimReportJson.toJson(htsim) : ReportJson.toJson(reports));
            out.flush();
        } else if (file != null && reports instanceof HtsimReport htsim) {
            write(file, htsim);
        } else if (file != null) {
            ReportJson.write(file, reports);
        }
    }

    private static void write(final Path file, final HtsimReport report) {
        try {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream stream = Files.newOutputStream(file)) {
                HtsimReportJson.write(stream, report);
            }
        } catch (final IOException e) {
            throw new ConfigException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
