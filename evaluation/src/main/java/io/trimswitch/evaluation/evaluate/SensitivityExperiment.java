package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.switching.report.RunReport;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How sensitive the control loop is to the pessimistic period T0 (halftimistic following for 3 × T0),
 * for 32 and 64 senders, and for the variants: no halftimistic state, pessimistic rate 0, notify only
 * the originating pipeline.
 */
final class SensitivityExperiment implements Experiment {
    static final double[] T0_US = {0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30};
    static final int[] SENDERS = {32, 64};
    static final String[] VARIANTS = {"tofino", "no-halftimistic", "pessimistic-rate-0", "notify-origin"};
    static final int PACKETS = 1000;

    @Override
    public String name() {
        return "sensitivity";
    }

    static String id(final int senders, final String variant, final double t0) {
        return "sensitivity-" + senders + "-" + variant + "-t0-" + RunSpec.slug(Double.toString(t0));
    }

    static String idealId(final int senders) {
        return "sensitivity-" + senders + "-ideal";
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final int senders : SENDERS) {
            final String pattern = "mod16:" + senders;
            specs.add(new RunSpec(idealId(senders), RunSpec.settings(TransportKind.NDP, pattern, Mechanism.IDEAL, PACKETS), false, false));
            for (final String variant : VARIANTS) {
                for (final double t0 : T0_US) {
                    final Settings settings = RunSpec.settings(TransportKind.NDP, pattern, Mechanism.TOFINO, PACKETS).withControl(c -> {
                        final Settings.Control timed = c.withT0Us(t0).withT1Us(t0 + 3 * t0);
                        return switch (variant) {
                            case "no-halftimistic" -> timed.withHalftimistic(false);
                            case "pessimistic-rate-0" -> timed.withPessimisticRateGbps(0.0);
                            case "notify-origin" -> timed.withNotifyScope(Settings.NotifyScope.ORIGIN);
                            default -> timed;
                        };
                    });
                    specs.add(new RunSpec(id(senders, variant, t0), settings, false, false));
                }
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<Figure> figures = new ArrayList<>();
        try (Csv csv = new Csv(dir.resolve("sensitivity.csv"), "senders", "variant", "t0_us", "t1_us", "goodput_mean_gbps",
            "goodput_min_gbps", "jain_fairness", "trims_vs_ideal", "max_dod_queue", "dod_overflows", "losses", "in_flight_at_end")) {
            for (final int senders : SENDERS) {
                final RunReport ideal = results.get(idealId(senders)).report();
                final XYChart goodput = Charts.xy(senders + " senders: flow goodput", "T0 (µs), T1 = 4 × T0", "mean goodput over completion (Gb/s)");
                final XYChart trims = Charts.xy(senders + " senders: trims vs ideal", "T0 (µs), T1 = 4 × T0", "trims / ideal's trims");
                final XYChart dod = Charts.xy(senders + " senders: largest DoD queue", "T0 (µs), T1 = 4 × T0", "max DoD queue (packets)");
                for (final String variant : VARIANTS) {
                    final double[] y1 = new double[T0_US.length];
                    final double[] y2 = new double[T0_US.length];
                    final double[] y3 = new double[T0_US.length];
                    for (int i = 0; i < T0_US.length; i++) {
                        final RunReport report = results.get(id(senders, variant, T0_US[i])).report();
                        y1[i] = report.goodput().meanGbps();
                        y2[i] = Metrics.trimsVsIdeal(report, ideal);
                        y3[i] = Metrics.maxDodQueue(report);
                        csv.row(senders, variant, T0_US[i], 4 * T0_US[i], report.goodput().meanGbps(), report.goodput().minGbps(),
                            report.goodput().jainFairness(), y2[i], Metrics.maxDodQueue(report), Metrics.dodOverflows(report),
                            Metrics.losses(report), Metrics.inFlightAtEnd(report));
                    }
                    Charts.points(goodput, variant, T0_US, y1);
                    Charts.points(trims, variant, T0_US, y2);
                    Charts.points(dod, variant, T0_US, y3);
                }
                Charts.line(goodput, "ideal", new double[] {T0_US[0], T0_US[T0_US.length - 1]},
                    new double[] {ideal.goodput().meanGbps(), ideal.goodput().meanGbps()});
                final String name = "sensitivity-" + senders;
                final List<String> svgs = Charts.save(dir, name, List.of(goodput, trims, dod), 3);
                figures.add(new Figure("Sensitivity to T0, " + senders + " senders",
                    "mod16:" + senders + " NDP flows of 1000 packets under tofino with the pessimistic period T0 from 0 (no response) to 30 µs and the halftimistic "
                        + "period lasting 3 × T0 after it; the variants drop the halftimistic state, trim everything while pessimistic, or notify "
                        + "only the pipeline the deflected packet came from.",
                    name + ".png", svgs, List.of("sensitivity.csv")));
            }
        }
        return figures;
    }
}
