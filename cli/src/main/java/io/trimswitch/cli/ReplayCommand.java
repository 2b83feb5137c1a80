package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.report.SummaryTable;
import io.trimswitch.switching.capture.EgressPcaps;
import io.trimswitch.switching.capture.FrameCapture;
import io.trimswitch.switching.capture.PcapngCapture;
import io.trimswitch.switching.source.ReplaySource;
import io.trimswitch.switching.capture.TeeCapture;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.realtime.RealTimeSwitch;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code trimswitch replay}: captures in, what each port sent out, deterministically. Its options are defined in code,
 * not by annotations (see {@link OptionsInCode}): a test suite starts it once per case.
 */
public final class ReplayCommand extends OptionsInCode implements Callable<Integer> {
    private final OptionSpec inputs = option(OptionSpec.builder("--in").required(true).paramLabel("[PORT=]FILE").type(List.class)
        .auxiliaryTypes(String.class).description("A capture to replay: FILE, a pcapng whose interface IDs are the ingress ports, "
            + "or PORT=FILE, every packet entering on PORT. Repeatable; at least one is required."));

    private final OptionSpec timing = option(OptionSpec.builder("--timing").paramLabel("capture|line-rate").type(String.class).initialValue("capture")
        .description("capture: at the capture's timestamps; line-rate: back to back at each port's rate (default: capture)"));

    private final OptionSpec speed = option(OptionSpec.builder("--speed").paramLabel("X").type(double.class).initialValue(1.0)
        .description("With --timing capture: replay X times faster (default: 1)"));

    private final SettingsFileOption config = group(new SettingsFileOption(), "config");

    private final OptionSpec mechanism = option("--mechanism", "NAME", String.class,
        Mechanism.labels(" | ") + " (default: the config's, else tofino)");

    private final OptionSpec outFile = option("--out", "FILE", Path.class,
        "One pcapng: an interface per switch port, each frame at its departure time, ns timestamps (default: none)");

    private final OptionSpec overwrite = flag("--overwrite", "Replace the --out file if it exists (default: refuse, as ctl capture does)");

    private final OptionSpec outFolder = option("--out-dir", "DIR", Path.class, "One pcap per port that sent anything: DIR/<port>_out.pcap (default: none)");

    private final ReportFileOption json = group(new ReportFileOption(), "json");

    private final ClockOptions clockOptions = group(new ClockOptions(), "clock");

    ReplayCommand() {
        group(new HelpOptions(), "help");
        model().name("replay");
        model().usageMessage().sortOptions(false).description(
            "Replays pcap/pcapng captures through the switch and writes what each port sent.",
            "In virtual time (the default) the same captures and settings always give byte-identical output; with --clock real they go through the real-time dataplane, paced by the host clock.");
    }

    @Override
    public Integer call() {
        Settings edited = config.load();
        if (given(mechanism)) {
            edited = edited.withMechanism(Mechanism.parse(mechanism.getValue()));
        }
        // A capture brings its own hosts: the model's transport does not apply.
        final Settings settings = clockOptions.applyTo(edited).withOpenLoop().validate();
        final String timingName = timing.getValue();
        final double speedUp = speed.getValue();
        final Path out = outFile.getValue();
        final Path outDir = outFolder.getValue();
        final ReplaySource.Timing mode = switch (timingName) {
            case "capture" -> ReplaySource.Timing.CAPTURE;
            case "line-rate" -> ReplaySource.Timing.LINE_RATE;
            default -> throw new ConfigException("--timing must be capture or line-rate, got '" + timingName + "'");
        };
        if (mode == ReplaySource.Timing.LINE_RATE && speedUp != 1.0) {
            throw new ConfigException("--speed applies to --timing capture; at line rate packets already go back to back");
        }
        final LinkRate rate = new LinkRate(settings.portRateBps());
        final List<ReplaySource.Input> captures = parseInputs(settings.portCount());
        refuseOutputsOverInputs(captures, out, outDir);
        json.checkWritable();
        if (out != null) {
            OutputFiles.requireWritable("--out", out);
            if (Files.exists(out, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !set(overwrite)) {
                throw new ConfigException("--out " + out + ": exists; pick a new name, or add --overwrite to replace it");
            }
        }
        try (OutputFolder held = outDir == null ? null : OutputFolder.claim("--out-dir", outDir, "replay", false, model().commandLine().getErr());
             OutputFolder.PendingFile pending = out == null ? null : new OutputFolder.PendingFile(out, model().commandLine().getErr())) {
            return replay(settings, captures, rate, mode, speedUp, out, outDir);
        }
    }

    private int replay(final Settings settings, final List<ReplaySource.Input> captures, final LinkRate rate, final ReplaySource.Timing mode,
        final double speedUp, final Path out, final Path outDir) {
        final ReplaySource source = new ReplaySource(captures, settings.portCount(), rate, mode, speedUp);
        final VirtualTimeSwitch sw = settings.realTime() ? null : new VirtualTimeSwitch(settings, source, -1);
        final RealTimeSwitch realTime = settings.realTime() ? new RealTimeSwitch(settings, source, -1) : null;

        final List<FrameCapture> outputs = new ArrayList<>();
        try {
            if (out != null) {
                outputs.add(new PcapngCapture(out, settings.portCount(), settings.portRateBps(), source.baseNanos()));
            }
            if (outDir != null) {
                outputs.add(new EgressPcaps(outDir, settings.portCount(), source.baseNanos()));
            }
            final RunReport report;
            try (FrameCapture capture = new TeeCapture(outputs)) {
                if (realTime != null) {
                    realTime.capture(capture);
                    report = ReportBuilder.build(realTime.run());
                } else {
                    sw.capture(capture);
                    report = ReportBuilder.build(sw.run());
                }
            }
            final PrintWriter log = json.text(model().commandLine().getOut(), model().commandLine().getErr());
            log.print(SummaryTable.render(List.of(report), false));
            log.println("per egress port (packets sent, of which trimmed):");
            for (final RunReport.PortReport port : report.ports()) {
                if (port.txPackets() > 0) {
                    log.printf(Locale.ROOT, "  port %d: %d, %d trimmed%n", port.id(), port.txPackets(), port.txTrimPackets());
                }
            }
            log.flush();
            json.write(report, model().commandLine().getOut());
            return report.conservation() ? 0 : TrimswitchCommand.EXIT_RUN_FAILED;
        } finally {
            if (sw != null) {
                sw.capture(null);
            }
        }
    }

    /** Writing a capture that is being read would overwrite it under the reader's feet. */
    private static void refuseOutputsOverInputs(final List<ReplaySource.Input> captures, final Path out, final Path outDir) {
        for (final ReplaySource.Input input : captures) {
            final Path read = input.file().toAbsolutePath().normalize();
            if (out != null && (read.equals(out.toAbsolutePath().normalize()) || sameFile(out, input.file()))) {
                throw new ConfigException("--out " + out + " is also an input: write the output elsewhere");
            }
            if (outDir != null && read.getParent() != null && read.getParent().equals(outDir.toAbsolutePath().normalize())
                && read.getFileName().toString().matches("\\d+_out\\.pcap")) {
                throw new ConfigException("--out-dir " + outDir + " would overwrite the input " + input.file() + ": write the output elsewhere");
            }
        }
    }

    private static boolean sameFile(final Path a, final Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (final IOException e) {
            return false;
        }
    }

    private List<ReplaySource.Input> parseInputs(final int ports) {
        final List<ReplaySource.Input> parsed = new ArrayList<>();
        final List<String> given = inputs.getValue();
        for (final String input : given) {
            final int equals = input.indexOf('=');
            final String name = input.substring(equals + 1);
            if (name.isBlank()) {
                throw new ConfigException("--in '" + input + "': names no capture file");
            }
            final Path file = Path.of(name);
            if (!Files.exists(file)) {
                throw new ConfigException("--in " + input + ": no such file");
            }
            if (Files.isDirectory(file)) {
                throw new ConfigException("--in " + input + ": a directory, not a capture");
            }
            if (equals < 0) {
                parsed.add(new ReplaySource.Input(file, null));
                continue;
            }
            final String port = input.substring(0, equals);
            try {
                parsed.add(new ReplaySource.Input(file, io.trimswitch.config.WholeNumbers.parseInt(port)));
            } catch (final NumberFormatException e) {
                throw new ConfigException("--in " + input + ": '" + port + "' is not a port number (the switch has ports 0.." + (ports - 1) + ")");
            }
        }
        return parsed;
    }
}
