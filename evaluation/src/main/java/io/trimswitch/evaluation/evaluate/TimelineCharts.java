package io.trimswitch.evaluation.evaluate;

import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.TimelineProbe;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;

/** The two panels of a control-loop timeline: trim states per egress port, and each pipeline's DoD queue over time. */
final class TimelineCharts {
    private TimelineCharts() {
    }

    /** A Gantt chart of {@code ports} egress ports: red while pessimistic, orange while halftimistic, up to {@code horizonUs}. */
    static XYChart states(final String title, final List<TimelineProbe.Interval> intervals, final int ports, final double horizonUs) {
        final XYChart chart = Charts.xy(title, "time (µs)", "egress port");
        chart.getStyler().setYAxisMin(-0.5);
        chart.getStyler().setYAxisMax(ports - 0.5);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(horizonUs);
        bars(chart, "pessimistic", intervals, new Color(0xd62728));
        bars(chart, "halftimistic", intervals, new Color(0xff9f1c));
        return chart;
    }

    /** Each pipeline's DoD queue depth over the probe's first {@code samples} samples, up to {@code horizonUs}. */
    static XYChart dodQueues(final String title, final TimelineProbe probe, final int samples, final double horizonUs) {
        final XYChart chart = Charts.xy(title, "time (µs)", "DoD queue (packets)");
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(horizonUs);
        final double[] x = new double[samples];
        for (int sample = 0; sample < samples; sample++) {
            x[sample] = Picos.toMicros(probe.sampleTime(sample));
        }
        for (int pipeline = 0; pipeline < probe.pipelines(); pipeline++) {
            final double[] y = new double[samples];
            for (int sample = 0; sample < samples; sample++) {
                y[sample] = probe.dodDepth(pipeline, sample);
            }
            Charts.line(chart, "pipeline " + pipeline, x, y);
        }
        return chart;
    }

    /** Horizontal bars, one per interval in {@code state}, drawn as thick segments separated by NaN gaps. */
    private static void bars(final XYChart chart, final String state, final List<TimelineProbe.Interval> intervals, final Color colour) {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final TimelineProbe.Interval interval : intervals) {
            if (!interval.state().equals(state)) {
                continue;
            }
            x.add(Picos.toMicros(interval.startPicos()));
            y.add((double) interval.port());
            x.add(Picos.toMicros(interval.endPicos()));
            y.add((double) interval.port());
            x.add(Picos.toMicros(interval.endPicos()));
            y.add(Double.NaN);
        }
        if (x.isEmpty()) {
            x.add(0.0);
            y.add(Double.NaN);
        }
        final XYSeries series = chart.addSeries(state, Charts.toArray(x), Charts.toArray(y));
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(colour);
        series.setLineStyle(new BasicStroke(9f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER));
    }
}
