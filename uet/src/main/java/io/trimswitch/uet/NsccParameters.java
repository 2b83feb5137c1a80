package io.trimswitch.uet;

/**
 * NSCC's constants for one network, scaled as UEC's specification scales them: against a reference network of 100 Gb/s
 * and a 12 µs round trip, by the bandwidth-delay product (a) and by the target delay (b). Times are picoseconds, sizes
 * bytes; a packet is {@code packetBytes} on the wire, {@code payloadBytes} of it data.
 */
public final class NsccParameters {
    static final long REFERENCE_RTT = 12_000_000L;
    static final double REFERENCE_BDP = 12e-6 * 100e9 / 8;

    final long networkRtt;
    final double linkBytesPerPico;
    final long targetDelay;
    final int packetBytes;
    final int payloadBytes;
    final long minWindow;
    /** Proportional increase: bytes of window per acknowledged byte and picosecond below the target. */
    final double alpha;
    /** Fair increase per acknowledged byte, in window × bytes. */
    final double fairIncrease;
    /** The additive step once per round trip. */
    final double eta;
    /** Fast increase: window bytes per acknowledged byte while the delay stays under 1 µs. */
    final double fastIncreaseScale;
    /** Multiplicative decrease: how hard the excess delay cuts the window. */
    final double gamma = 0.8;
    /** The weight of a new delay sample in the average. */
    final double delayWeight = 0.0125;
    final long adjustPeriod;
    final long adjustBytes;
    final long quickAdaptThreshold;
    /** Quick adapt runs only while a round's achieved bytes are below the largest window shifted right by this. */
    final int quickAdaptGate = 3;

    /**
     * @param networkRtt  the unloaded round trip of the network's longest path, ps
     * @param linkBps     the hosts' link rate
     * @param targetDelay NSCC's target queuing delay, ps (above 0)
     * @param packetBytes a data packet on the wire
     * @param payloadBytes its data
     */
    public NsccParameters(final long networkRtt, final long linkBps, final long targetDelay, final int packetBytes, final int payloadBytes) {
        if (networkRtt <= 0 || linkBps <= 0 || targetDelay <= 0 || packetBytes <= 0 || payloadBytes <= 0) {
            throw new IllegalArgumentException("NSCC needs a positive round trip, rate, target delay and packet size");
        }
        this.networkRtt = networkRtt;
        this.linkBytesPerPico = linkBps / 8e12;
        this.targetDelay = targetDelay;
        this.packetBytes = packetBytes;
        this.payloadBytes = payloadBytes;
        this.minWindow = packetBytes;
        final double networkBdp = (long) (networkRtt * 1e-12 * (linkBps / 8.0));
        final double a = networkBdp / REFERENCE_BDP;
        final double b = (double) targetDelay / REFERENCE_RTT;
        this.alpha = 4.0 * payloadBytes * a * b / targetDelay;
        this.fairIncrease = 5.0 * payloadBytes * a;
        this.eta = 0.15 * payloadBytes * a;
        this.fastIncreaseScale = 0.25 * a;
        this.adjustPeriod = networkRtt;
        this.adjustBytes = 8L * packetBytes;
        this.quickAdaptThreshold = 4 * targetDelay;
    }

    /** The bandwidth-delay product of a round trip of {@code rtt} ps, bytes. */
    long bdp(final long rtt) {
        return (long) (rtt * linkBytesPerPico);
    }

    /** The default target delay with trimming: three quarters of the network's round trip. */
    public static long defaultTargetDelay(final long networkRtt) {
        return (long) (networkRtt * 0.75);
    }

    /** A data packet's payload, bytes. */
    public int payloadBytes() {
        return payloadBytes;
    }

    public long targetDelayPicos() {
        return targetDelay;
    }
}
