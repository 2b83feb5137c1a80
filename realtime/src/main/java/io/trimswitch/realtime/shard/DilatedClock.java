package io.trimswitch.realtime.shard;

import org.agrona.concurrent.NanoClock;

/**
 * Switch time read off a host clock, slowed down by the dilation: one picosecond of switch time takes
 * {@code dilation} picoseconds of wall time. Rates and time constants stay the model's own; only the
 * mapping to the host changes. The shards read it and pass the time in; components never read a clock.
 */
public final class DilatedClock {
    private final NanoClock host;
    private final double picosPerHostNano;
    private volatile long epochNanos;
    /** Switch time stands still here: a run's end, past which nothing of it may happen. */
    private volatile long endPicos = Long.MAX_VALUE;

    public DilatedClock(final NanoClock host, final double dilation) {
        if (!(dilation > 0) || Double.isInfinite(dilation)) {
            throw new IllegalArgumentException("dilation must be positive, got " + dilation);
        }
        this.host = host;
        this.picosPerHostNano = 1000.0 / dilation;
    }

    /** Switch time zero is {@code delayNanos} of host time from now (negative until then). */
    public void startIn(final long delayNanos) {
        epochNanos = host.nanoTime() + delayNanos;
    }

    /** Switch time now, never past the run's end. */
    public long nowPicos() {
        return picosAt(hostNow());
    }

    /** The host clock now: one read that a caller turns into switch time ({@link #picosAt}) and keeps as host time. */
    public long hostNow() {
        return host.nanoTime();
    }

    /** Switch time at host time {@code hostNanos}, never past the run's end. */
    public long picosAt(final long hostNanos) {
        return Math.min(endPicos, (long) ((hostNanos - epochNanos) * picosPerHostNano));
    }

    /**
     * Switch time stops at {@code picos} ({@link Long#MAX_VALUE}: never): a run's shards then finish everything up to its
     * end and nothing after it, as a virtual-time run does, however late the run's threads are stopped.
     */
    public void endAt(final long picos) {
        endPicos = picos;
    }

    /** Host nanoseconds that {@code picos} of switch time take. */
    public long hostNanos(final long picos) {
        return (long) (picos / picosPerHostNano);
    }
}
