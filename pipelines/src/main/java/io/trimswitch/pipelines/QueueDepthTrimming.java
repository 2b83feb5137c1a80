package io.trimswitch.pipelines;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Tofino 2's trim decision: its ingress can read an egress queue's depth, so a trimmable packet is trimmed when the
 * depth it reads is at or above a threshold. The read is stale: the packets that passed the read but are still in
 * the ingress pipelines' later stages (so many stages in every pipeline) are not in the queue yet. The most recent of
 * them admitted towards the port are subtracted from the depth the queue has now. What slips past a stale read and
 * finds the queue full is deflected on drop.
 */
public final class QueueDepthTrimming implements IngressMeters {
    private static final int TRIMMED = -1;

    private final IntUnaryOperator depth;
    private final int threshold;
    /** The last decisions in the later stages, oldest first: the egress port of an admitted packet, or TRIMMED. */
    private final int[] inFlight;
    /** Per egress port, how many of {@link #inFlight} were admitted towards it. */
    private final int[] admitted;
    private int next;

    /**
     * @param depth          a port's data queue depth now, in packets
     * @param thresholdPackets trim at or above this read depth
     * @param inFlightPackets  packets in the ingress pipelines' stages after the read (stages × pipelines); 0: a fresh read
     */
    public QueueDepthTrimming(final int ports, final IntUnaryOperator depth, final int thresholdPackets, final int inFlightPackets) {
        if (thresholdPackets < 1 || inFlightPackets < 0) {
            throw new IllegalArgumentException("threshold at least 1 and stale packets at least 0, got " + thresholdPackets + ", " + inFlightPackets);
        }
        this.depth = depth;
        this.threshold = thresholdPackets;
        this.inFlight = new int[inFlightPackets];
        this.admitted = new int[ports];
        Arrays.fill(inFlight, TRIMMED);
    }

    @Override
    public boolean shouldTrim(final int egressPort, final int state, final int bytes, final long now) {
        final int read = Math.max(0, depth.applyAsInt(egressPort) - admitted[egressPort]);
        final boolean trim = read >= threshold;
        if (inFlight.length > 0) {
            final int leaving = inFlight[next];
            if (leaving != TRIMMED) {
                admitted[leaving]--;
            }
            inFlight[next] = trim ? TRIMMED : egressPort;
            if (!trim) {
                admitted[egressPort]++;
            }
            next = next + 1 == inFlight.length ? 0 : next + 1;
        }
        return trim;
    }

    /** The depth ingress would read for {@code egressPort} now. */
    public int readDepth(final int egressPort) {
        return Math.max(0, depth.applyAsInt(egressPort) - admitted[egressPort]);
    }

    @Override
    public void reset() {
        Arrays.fill(inFlight, TRIMMED);
        Arrays.fill(admitted, 0);
        next = 0;
    }
}
