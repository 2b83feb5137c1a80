package io.trimswitch.dataplane.time;

/**
 * Time in the dataplane is a {@code long} count of picoseconds. A 64-byte header takes 5.12 ns at
 * 100 Gb/s, so nanoseconds would not be exact; 2^63 ps is still 106 days.
 */
public final class Picos {
    public static final long PER_NANO = 1_000L;
    public static final long PER_MICRO = 1_000_000L;
    public static final long PER_MILLI = 1_000_000_000L;
    public static final long PER_SECOND = 1_000_000_000_000L;

    private Picos() {
    }

    public static long fromNanos(final double nanos) {
        return Math.round(nanos * PER_NANO);
    }

    public static long fromMicros(final double micros) {
        return Math.round(micros * PER_MICRO);
    }

    public static double toNanos(final long picos) {
        return picos / (double) PER_NANO;
    }

    public static double toMicros(final long picos) {
        return picos / (double) PER_MICRO;
    }

    /** Time to put {@code bytes} on a wire of {@code bitsPerSecond}, rounded up to the next picosecond. */
    public static long serialisation(final int bytes, final long bitsPerSecond) {
        final long bitPicos = bytes * 8L * PER_SECOND;
        return (bitPicos + bitsPerSecond - 1) / bitsPerSecond;
    }
}
