package io.trimswitch.simulator;

import io.trimswitch.pipelines.StateProbe;
import io.trimswitch.switching.AssembledSwitch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An optional recorder of how a run unfolds: every congestion NOTIFY each pipeline received per egress
 * port (from which the trim-state intervals follow), and the depth of every DoD queue and every egress
 * data queue sampled at a fixed period. Attached only when asked for, so the dataplane pays nothing for it otherwise.
 */
public final class TimelineProbe implements StateProbe {
    /** A span of time during which a pipeline held a port in a congested state. */
    public record Interval(int pipeline, int port, String state, long startPicos, long endPicos) {
    }

    private final long samplePeriodPicos;
    private long[][][] notifies = new long[0][][];
    private int[][] notifyCounts = new int[0][];
    private long[] sampleTimes = new long[256];
    private int[][] dodDepths = new int[0][];
    private int[][] dataDepths = new int[0][];
    private int samples;

    public TimelineProbe(final long samplePeriodPicos) {
        if (samplePeriodPicos <= 0) {
            throw new IllegalArgumentException("sample period must be positive, got " + samplePeriodPicos + " ps");
        }
        this.samplePeriodPicos = samplePeriodPicos;
    }

    void prepare(final int pipelines, final int ports) {
        notifies = new long[pipelines][ports][];
        notifyCounts = new int[pipelines][ports];
        dodDepths = new int[pipelines][sampleTimes.length];
        dataDepths = new int[ports][sampleTimes.length];
        samples = 0;
    }

    @Override
    public void onNotify(final int pipeline, final int port, final long now, final long pessimisticUntil, final long halftimisticUntil) {
        long[] times = notifies[pipeline][port];
        final int count = notifyCounts[pipeline][port];
        if (times == null || count == times.length) {
            times = times == null ? new long[16] : Arrays.copyOf(times, count * 2);
            notifies[pipeline][port] = times;
        }
        times[count] = now;
        notifyCounts[pipeline][port] = count + 1;
    }

    void sample(final long now, final AssembledSwitch assembly) {
        if (samples == sampleTimes.length) {
            sampleTimes = Arrays.copyOf(sampleTimes, samples * 2);
            for (int pipeline = 0; pipeline < dodDepths.length; pipeline++) {
                dodDepths[pipeline] = Arrays.copyOf(dodDepths[pipeline], samples * 2);
            }
            for (int port = 0; port < dataDepths.length; port++) {
                dataDepths[port] = Arrays.copyOf(dataDepths[port], samples * 2);
            }
        }
        sampleTimes[samples] = now;
        for (int pipeline = 0; pipeline < dodDepths.length; pipeline++) {
            final var port = assembly.recirculation(pipeline);
            dodDepths[pipeline][samples] = port == null ? 0 : port.queue().size();
        }
        for (int port = 0; port < dataDepths.length; port++) {
            dataDepths[port][samples] = assembly.port(port).dataQueue().size();
        }
        samples++;
    }

    /**
     * What the probe recorded, trimmed to its length: an evaluation that runs on several machines keeps it in a file and
     * draws from it as from the probe.
     */
    public record Recording(long samplePeriodPicos, long[] sampleTimes, int[][] dodDepths, int[][] dataDepths, long[][][] notifies) {
    }

    public Recording recording() {
        final int[][] dod = new int[dodDepths.length][];
        for (int pipeline = 0; pipeline < dod.length; pipeline++) {
            dod[pipeline] = Arrays.copyOf(dodDepths[pipeline], samples);
        }
        final int[][] data = new int[dataDepths.length][];
        for (int port = 0; port < data.length; port++) {
            data[port] = Arrays.copyOf(dataDepths[port], samples);
        }
        final long[][][] times = new long[notifies.length][][];
        for (int pipeline = 0; pipeline < times.length; pipeline++) {
            times[pipeline] = new long[notifies[pipeline].length][];
            for (int port = 0; port < times[pipeline].length; port++) {
                final long[] recorded = notifies[pipeline][port];
                times[pipeline][port] = recorded == null ? null : Arrays.copyOf(recorded, notifyCounts[pipeline][port]);
            }
        }
        return new Recording(samplePeriodPicos, Arrays.copyOf(sampleTimes, samples), dod, data, times);
    }

    /** A probe that answers as the one that made {@code recording} did. */
    public static TimelineProbe replaying(final Recording recording) {
        final TimelineProbe probe = new TimelineProbe(recording.samplePeriodPicos());
        probe.samples = recording.sampleTimes().length;
        probe.sampleTimes = recording.sampleTimes().clone();
        probe.dodDepths = recording.dodDepths();
        probe.dataDepths = recording.dataDepths();
        probe.notifies = recording.notifies();
        probe.notifyCounts = new int[probe.notifies.length][];
        for (int pipeline = 0; pipeline < probe.notifies.length; pipeline++) {
            probe.notifyCounts[pipeline] = new int[probe.notifies[pipeline].length];
            for (int port = 0; port < probe.notifies[pipeline].length; port++) {
                final long[] times = probe.notifies[pipeline][port];
                probe.notifyCounts[pipeline][port] = times == null ? 0 : times.length;
            }
        }
        return probe;
    }

    public long samplePeriodPicos() {
        return samplePeriodPicos;
    }

    public int samples() {
        return samples;
    }

    public long sampleTime(final int sample) {
        return sampleTimes[sample];
    }

    public int dodDepth(final int pipeline, final int sample) {
        return dodDepths[pipeline][sample];
    }

    /** Packets in egress port {@code port}'s data queue at sample {@code sample}. */
    public int dataDepth(final int port, final int sample) {
        return dataDepths[port][sample];
    }

    public int pipelines() {
        return dodDepths.length;
    }

    /**
     * The pessimistic and halftimistic intervals of {@code port} as seen by {@code pipeline}: the union of
     * [n, n + T0] is pessimistic; what the union of [n, n + T1] adds to it is halftimistic.
     */
    public List<Interval> intervals(final int pipeline, final int port, final long t0, final long t1, final long runEnd) {
        final List<Interval> result = new ArrayList<>();
        final long[] times = notifies[pipeline][port];
        final int count = notifyCounts[pipeline][port];
        if (times == null || t1 == 0) {
            return result;
        }
        final List<long[]> pessimistic = t0 == 0 ? List.of() : union(times, count, t0, runEnd);
        final List<long[]> congested = union(times, count, t1, runEnd);
        for (final long[] span : congested) {
            long cursor = span[0];
            for (final long[] hot : pessimistic) {
                if (hot[1] <= span[0] || hot[0] >= span[1]) {
                    continue;
                }
                if (hot[0] > cursor) {
                    result.add(new Interval(pipeline, port, "halftimistic", cursor, hot[0]));
                }
                result.add(new Interval(pipeline, port, "pessimistic", hot[0], hot[1]));
                cursor = hot[1];
            }
            if (cursor < span[1]) {
                result.add(new Interval(pipeline, port, "halftimistic", cursor, span[1]));
            }
        }
        return result;
    }

    private static List<long[]> union(final long[] times, final int count, final long duration, final long runEnd) {
        final List<long[]> spans = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            final long start = times[i];
            final long end = Math.min(runEnd, start + duration);
            if (!spans.isEmpty() && start <= spans.get(spans.size() - 1)[1]) {
                spans.get(spans.size() - 1)[1] = Math.max(spans.get(spans.size() - 1)[1], end);
            } else {
                spans.add(new long[] {start, end});
            }
        }
        return spans;
    }
}
