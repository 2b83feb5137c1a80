package io.trimswitch.pipelines;

/**
 * A two-rate three-colour marker (RFC 2698), colour-blind, in exact integer arithmetic. Tokens are
 * counted in units of 1/(8·10^12) byte, so a rate of R b/s adds exactly R units per picosecond and no
 * rounding ever happens. Buckets start full. One writer: the pipeline that owns the meter.
 *
 * <p>A meter whose rate is 0 has an empty bucket and marks every packet RED ("trim everything").
 */
public final class TrTcmMeter {
    public static final int GREEN = 0;
    public static final int YELLOW = 1;
    public static final int RED = 2;
    /** Token units per byte: 8 bits × 10^12 ps/s. */
    public static final long UNITS_PER_BYTE = 8_000_000_000_000L;
    /** Keeps burst × units, plus one refill step, well within a long. */
    public static final int MAX_BURST_BYTES = 1 << 19;

    private final long peakRate;
    private final long committedRate;
    private final long peakDepth;
    private final long committedDepth;
    /** An empty bucket is full again after this long; below it, elapsed × rate cannot overflow. */
    private final long peakFillPicos;
    private final long committedFillPicos;
    /** PIR = CIR and PBS = CBS: both buckets would stay equal, so only the peak one is kept (never YELLOW). */
    private final boolean singleRate;
    private long peakTokens;
    private long committedTokens;
    private long lastUpdate;

    /**
     * @param peakBitsPerSecond      PIR
     * @param peakBurstBytes         PBS
     * @param committedBitsPerSecond CIR, at most PIR
     * @param committedBurstBytes    CBS
     */
    public TrTcmMeter(
        final long peakBitsPerSecond, final int peakBurstBytes, final long committedBitsPerSecond, final int committedBurstBytes) {
        if (peakBitsPerSecond < 0 || committedBitsPerSecond < 0 || committedBitsPerSecond > peakBitsPerSecond) {
            throw new IllegalArgumentException("meter rates need 0 <= CIR <= PIR, got CIR " + committedBitsPerSecond + " b/s, PIR " + peakBitsPerSecond + " b/s");
        }
        if (peakBurstBytes < 0 || committedBurstBytes < 0 || peakBurstBytes > MAX_BURST_BYTES || committedBurstBytes > MAX_BURST_BYTES) {
            throw new IllegalArgumentException("meter burst sizes must be 0.." + MAX_BURST_BYTES + " B, got PBS " + peakBurstBytes + " B, CBS " + committedBurstBytes + " B");
        }
        this.peakRate = peakBitsPerSecond;
        this.committedRate = committedBitsPerSecond;
        this.peakDepth = peakBitsPerSecond == 0 ? 0 : peakBurstBytes * UNITS_PER_BYTE;
        this.committedDepth = committedBitsPerSecond == 0 ? 0 : committedBurstBytes * UNITS_PER_BYTE;
        this.peakFillPicos = fillTime(peakDepth, peakBitsPerSecond);
        this.committedFillPicos = fillTime(committedDepth, committedBitsPerSecond);
        this.singleRate = peakBitsPerSecond == committedBitsPerSecond && peakDepth == committedDepth;
        reset();
    }

    /** A single-rate meter: PIR = CIR = rate, PBS = CBS = burst; never YELLOW. */
    public static TrTcmMeter singleRate(final long bitsPerSecond, final int burstBytes) {
        return new TrTcmMeter(bitsPerSecond, burstBytes, bitsPerSecond, burstBytes);
    }

    /** Meters a packet of {@code bytes} arriving at {@code now} and returns its colour. */
    public int mark(final int bytes, final long now) {
        final long cost = bytes * UNITS_PER_BYTE;
        if (singleRate) {
            final long elapsed = now - lastUpdate;
            if (elapsed > 0) {
                lastUpdate = now;
                peakTokens = fill(peakTokens, peakRate, peakDepth, peakFillPicos, elapsed);
            }
            if (peakTokens < cost) {
                return RED;
            }
            peakTokens -= cost;
            return GREEN;
        }
        refill(now);
        if (peakTokens < cost) {
            return RED;
        }
        peakTokens -= cost;
        if (committedTokens < cost) {
            return YELLOW;
        }
        committedTokens -= cost;
        return GREEN;
    }

    private void refill(final long now) {
        final long elapsed = now - lastUpdate;
        if (elapsed <= 0) {
            return;
        }
        lastUpdate = now;
        peakTokens = fill(peakTokens, peakRate, peakDepth, peakFillPicos, elapsed);
        committedTokens = fill(committedTokens, committedRate, committedDepth, committedFillPicos, elapsed);
    }

    private static long fill(final long tokens, final long rate, final long depth, final long fillPicos, final long elapsed) {
        if (elapsed >= fillPicos) {
            return depth;
        }
        // elapsed < depth / rate + 1, so elapsed × rate < depth + rate: no overflow, and no division per packet.
        return Math.min(depth, tokens + elapsed * rate);
    }

    private static long fillTime(final long depth, final long rate) {
        return rate == 0 ? Long.MAX_VALUE : (depth + rate - 1) / rate;
    }

    /** Peak bucket content in whole bytes, for tests and statistics. */
    public long peakTokensBytes() {
        return peakTokens / UNITS_PER_BYTE;
    }

    public long committedTokensBytes() {
        return (singleRate ? peakTokens : committedTokens) / UNITS_PER_BYTE;
    }

    public void reset() {
        peakTokens = peakDepth;
        committedTokens = committedDepth;
        lastUpdate = 0;
    }
}
