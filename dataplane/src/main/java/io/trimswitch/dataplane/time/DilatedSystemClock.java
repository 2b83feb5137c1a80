package io.trimswitch.dataplane.time;

/**
 * Host time divided by a dilation factor: with dilation D, one simulated picosecond lasts D real
 * picoseconds, so every rate is scaled down and every time constant up by D.
 */
public final class DilatedSystemClock implements Clock {
    private final long startNanos;
    private final double dilation;

    public DilatedSystemClock(final double dilation) {
        if (!(dilation >= 1.0)) {
            throw new IllegalArgumentException("dilation must be at least 1, got " + dilation);
        }
        this.dilation = dilation;
        this.startNanos = System.nanoTime();
    }

    @Override
    public long nowPicos() {
        return (long) ((System.nanoTime() - startNanos) * (Picos.PER_NANO / dilation));
    }
}
