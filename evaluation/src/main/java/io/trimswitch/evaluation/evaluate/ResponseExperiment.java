package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.TimelineProbe;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** How the control loop responds over time: when each egress port is pessimistic or halftimistic, and the DoD queues. */
final class ResponseExperiment implements Experiment {
    static final int[] SENDERS = {18, 32, 64};
    static final int PACKETS = 1000;
    private static final int OBSERVED_PIPELINE = 0;
    private static final int PORTS = 16;

    @Override
    public String name() {
        return "response";
    }

    static String id(final int senders) {
        return "response-" + senders;
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final int senders : SENDERS) {
            specs.add(new RunSpec(id(senders), RunSpec.settings(TransportKind.OPEN_LOOP, "mod16:" + senders, Mechanism.TOFINO, PACKETS), false, true));
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<Figure> figures = new ArrayList<>();
        try (Csv states = new Csv(dir.resolve("response-states.csv"), "senders", "pipeline", "port", "state", "start_us", "end_us");
             Csv depths = new Csv(dir.resolve("response-dod.csv"), "senders", "time_us", "pipeline0", "pipeline1", "pipeline2", "pipeline3")) {
            for (final int senders : SENDERS) {
                final RunResult result = results.get(id(senders));
                final TimelineProbe probe = result.timeline();
                final var settings = result.report().config();
                final long t0 = Picos.fromMicros(settings.control().t0Us());
                final long t1 = settings.control().halftimistic() ? Picos.fromMicros(settings.control().t1Us()) : t0;
                final long runEnd = Picos.fromMicros(settings.workload().durationUs());

                long lastActivity = 0;
                final List<TimelineProbe.Interval> intervals = new ArrayList<>();
                for (int pipeline = 0; pipeline < probe.pipelines(); pipeline++) {
                    for (int port = 0; port < PORTS; port++) {
                        for (final TimelineProbe.Interval interval : probe.intervals(pipeline, port, t0, t1, runEnd)) {
                            states.row(senders, pipeline, port, interval.state(), Picos.toMicros(interval.startPicos()), Picos.toMicros(interval.endPicos()));
                            lastActivity = Math.max(lastActivity, interval.endPicos());
                            if (pipeline == OBSERVED_PIPELINE) {
                                intervals.add(interval);
                            }
                        }
                    }
                }
                for (int sample = 0; sample < probe.samples(); sample++) {
                    final Object[] row = new Object[6];
                    row[0] = senders;
                    row[1] = Picos.toMicros(probe.sampleTime(sample));
                    boolean any = false;
                    for (int pipeline = 0; pipeline < 4; pipeline++) {
                        final int depth = pipeline < probe.pipelines() ? probe.dodDepth(pipeline, sample) : 0;
                        row[2 + pipeline] = depth;
                        any |= depth > 0;
                    }
                    depths.row(row);
                    if (any) {
                        lastActivity = Math.max(lastActivity, probe.sampleTime(sample));
                    }
                }
                final double horizon = Math.max(Picos.toMicros(lastActivity) + 10, 150);

                final XYChart timeline = TimelineCharts.states(senders + " senders: trim state per egress port (pipeline " + OBSERVED_PIPELINE + ")",
                    intervals, PORTS, horizon);
                timeline.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
                timeline.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
                final XYChart dod = TimelineCharts.dodQueues(senders + " senders: DoD queue depth", probe, probe.samples(), horizon);
                final String name = "response-" + senders;
                final List<String> svgs = Charts.save(dir, name, List.of(timeline, dod), 2);
                figures.add(new Figure("Control-loop response, " + senders + " senders",
                    "mod16:" + senders + " under tofino. Left: when pipeline " + OBSERVED_PIPELINE + " holds each egress port pessimistic "
                        + "(red, trims to R/4) or halftimistic (orange, R/2) after congestion NOTIFYs; other pipelines get the same NOTIFYs. "
                        + "Right: each pipeline's DoD queue, sampled every 0.5 µs.",
                    name + ".png", svgs, List.of("response-states.csv", "response-dod.csv")));
            }
        }
        return figures;
    }
}
