package io.trimswitch.live.capture;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.realtime.shard.PortTap;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.switching.AssembledSwitch;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;

/**
 * What a live shard's ports show of their traffic without changing it, as a tap on each link would: the port's capture
 * while {@code ctl capture} runs one (every frame the port received, those the switch then refuses too, and every frame
 * it sent), and the depth of its queues as each packet leaves. The shard's thread alone writes them; the depth records
 * are read under this tap's lock.
 */
public final class LiveTap implements PortTap {
    private final AssembledSwitch assembly;
    private final PacketPool pool;
    /** Per port: its capture, or null; the shard's thread alone sets it ({@link #capture}). */
    private final LiveCapture[] captures;
    private final Recorder[] dataDepths;
    private final Recorder[] headerDepths;
    private final Histogram[] dataDepthTotals;
    private final Histogram[] headerDepthTotals;
    /** The recorders' interval histograms, handed back to them at each reading. */
    private final Histogram[] dataIntervals;
    private final Histogram[] headerIntervals;

    public LiveTap(final AssembledSwitch assembly, final PacketPool pool) {
        this.assembly = assembly;
        this.pool = pool;
        final int ports = assembly.ports();
        this.captures = new LiveCapture[ports];
        this.dataDepths = new Recorder[ports];
        this.headerDepths = new Recorder[ports];
        this.dataDepthTotals = new Histogram[ports];
        this.headerDepthTotals = new Histogram[ports];
        this.dataIntervals = new Histogram[ports];
        this.headerIntervals = new Histogram[ports];
    }

    /** Port {@code port}'s queues' depths are recorded from now on. */
    public void watch(final int port) {
        dataDepths[port] = new Recorder(1 << 20, 2);
        headerDepths[port] = new Recorder(1 << 20, 2);
        dataDepthTotals[port] = new Histogram(1 << 20, 2);
        headerDepthTotals[port] = new Histogram(1 << 20, 2);
    }

    /** On the shard's thread: port {@code port}'s frames go to {@code capture} too (null: to none). */
    public void capture(final int port, final LiveCapture capture) {
        captures[port] = capture;
    }

    @Override
    public void received(final int port, final long time, final DirectBuffer buffer, final int offset, final int length) {
        final LiveCapture capture = captures[port];
        if (capture != null) {
            capture.received(time, buffer, offset, length);
        }
    }

    @Override
    public void departed(final int port, final int handle, final long time) {
        // The queues' depths as each packet leaves: their distribution over the switch's life.
        final EgressPort egress = assembly.port(port);
        dataDepths[port].recordValue(egress.dataQueue().size());
        headerDepths[port].recordValue(egress.headerQueue().size());
        final LiveCapture capture = captures[port];
        if (capture != null) {
            capture.sent(time, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    public synchronized Histogram depths(final int port, final boolean data) {
        final Histogram total = total(port, data);
        total.add(takeInterval(port, data));
        return total.copy();
    }

    /**
     * The same at {@code percentiles}, into {@code values}, without a copy: what the gauges sample ten times a second.
     * Returns false, {@code values} untouched, when no packet departed since the last call: the distribution is as it
     * was, and an idle switch skips the scans of every bucket.
     */
    public synchronized boolean depthsAt(final int port, final boolean data, final double[] percentiles, final long[] values) {
        final Histogram interval = takeInterval(port, data);
        if (interval.getTotalCount() == 0) {
            return false;
        }
        final Histogram total = total(port, data);
        total.add(interval);
        for (int i = 0; i < percentiles.length; i++) {
            values[i] = total.getValueAtPercentile(percentiles[i]);
        }
        return true;
    }

    /** What the port's recorder took since the last call, into its interval histogram, which is reused. */
    private Histogram takeInterval(final int port, final boolean data) {
        final Histogram[] intervals = data ? dataIntervals : headerIntervals;
        intervals[port] = (data ? dataDepths : headerDepths)[port].getIntervalHistogram(intervals[port]);
        return intervals[port];
    }

    /** The port's distribution over the switch's life, up to the last interval taken. */
    private Histogram total(final int port, final boolean data) {
        return data ? dataDepthTotals[port] : headerDepthTotals[port];
    }
}
