package io.trimswitch.uet;

import java.util.Arrays;

/**
 * NSCC, the Ultra Ethernet network-signal congestion control, for every flow of a host model: each ACK's ECN mark and
 * queuing delay (its round trip less the base round trip) against the target delay choose a step: fair increase
 * (delayed, unmarked), proportional increase (below the target, unmarked; fast increase when the delay stays near
 * zero), multiplicative decrease (delayed and marked), nothing (marked, below the target: the path is to blame). The
 * increases are applied together once a round trip or every eight packets. Quick adapt cuts the window to what the
 * last round delivered after a NACK or a delay far above the target; a NACK also takes its packet off the window.
 * Windows are whole bytes, times picoseconds; per-flow state lives in arrays, so a step allocates nothing.
 */
final class Nscc {
    private final NsccParameters p;
    private final long[] window;
    private final long[] maxWindow;
    private final long[] initialWindow;
    private final long[] baseRtt;
    private final long[] averageDelay;
    private final long[] achieved;
    private final long[] received;
    private final long[] bytesIgnored;
    private final long[] bytesToIgnore;
    private final long[] increase;
    private final long[] fastCount;
    private final boolean[] fast;
    private final long[] lastAdjust;
    private final long[] lastDecrease;
    private final long[] quickAdaptEnd;
    private final boolean[] quickAdaptDue;
    private final long[] quickAdapts;

    /** {@code initialWindow[f]}: flow f's first window in bytes, or 0 for 1.5 bandwidth-delay products. */
    Nscc(final NsccParameters parameters, final long[] initialWindow) {
        this.p = parameters;
        final int flows = initialWindow.length;
        this.initialWindow = initialWindow.clone();
        window = new long[flows];
        maxWindow = new long[flows];
        baseRtt = new long[flows];
        averageDelay = new long[flows];
        achieved = new long[flows];
        received = new long[flows];
        bytesIgnored = new long[flows];
        bytesToIgnore = new long[flows];
        increase = new long[flows];
        fastCount = new long[flows];
        fast = new boolean[flows];
        lastAdjust = new long[flows];
        lastDecrease = new long[flows];
        quickAdaptEnd = new long[flows];
        quickAdaptDue = new boolean[flows];
        quickAdapts = new long[flows];
        reset();
    }

    void reset() {
        for (int flow = 0; flow < window.length; flow++) {
            baseRtt[flow] = p.networkRtt;
            maxWindow[flow] = (long) (1.5 * p.bdp(p.networkRtt));
            window[flow] = initialWindow[flow] > 0 ? initialWindow[flow] : maxWindow[flow];
        }
        Arrays.fill(averageDelay, 0);
        Arrays.fill(achieved, 0);
        Arrays.fill(received, 0);
        Arrays.fill(bytesIgnored, 0);
        Arrays.fill(bytesToIgnore, 0);
        Arrays.fill(increase, 0);
        Arrays.fill(fastCount, 0);
        Arrays.fill(fast, false);
        Arrays.fill(lastAdjust, 0);
        Arrays.fill(lastDecrease, 0);
        Arrays.fill(quickAdaptEnd, 0);
        Arrays.fill(quickAdaptDue, false);
        Arrays.fill(quickAdapts, 0);
    }

    long window(final int flow) {
        return window[flow];
    }

    long quickAdapts(final int flow) {
        return quickAdapts[flow];
    }

    /** The receiver reports {@code bytes} more received than its last ACK did. */
    void delivered(final int flow, final long bytes) {
        achieved[flow] += bytes;
        received[flow] += bytes;
        bytesIgnored[flow] += bytes;
    }

    /**
     * A round-trip sample of a packet sent once, {@code rtt} ps: it may lower the base round trip (and with it the
     * largest window); returns the queuing delay it shows, or the average where it is below the base.
     */
    long sample(final int flow, final long rtt, final boolean marked) {
        lowerBase(flow, rtt);
        if (rtt >= baseRtt[flow]) {
            updateDelay(flow, rtt - baseRtt[flow], marked);
            return rtt - baseRtt[flow];
        }
        return averageDelay[flow];
    }

    /** No sample (the packet was sent again, or the ACK covers it late): the average delay stands for one. */
    long averageDelay(final int flow) {
        return averageDelay[flow];
    }

    private void lowerBase(final int flow, final long rtt) {
        if (baseRtt[flow] > rtt) {
            baseRtt[flow] = rtt;
            final long bdp = (long) (rtt / 1e6 * (p.linkBytesPerPico * 8e12) / 8e6);
            maxWindow[flow] = (long) (1.5 * bdp);
        }
    }

    private void updateDelay(final int flow, final long delay, final boolean marked) {
        if (!marked && delay > p.targetDelay) {
            // A long delay without a mark is not this path's queue: count it as a quarter of a base round trip.
            averageDelay[flow] = (long) (p.delayWeight * baseRtt[flow] * 0.25 + (1 - p.delayWeight) * averageDelay[flow]);
        } else {
            averageDelay[flow] = (long) (p.delayWeight * delay + (1 - p.delayWeight) * averageDelay[flow]);
        }
    }

    /** The per-ACK rule: {@code bytes} newly delivered, the ACK {@code marked} or not, {@code delay} its queuing delay. */
    void onAck(final int flow, final boolean marked, final long delay, final long bytes, final long now) {
        if (quickAdapt(flow, false, marked, delay, now)) {
            return;
        }
        if (!marked && delay >= p.targetDelay) {
            increase[flow] = (long) (increase[flow] + p.fairIncrease * bytes);
        } else if (!marked) {
            proportionalIncrease(flow, bytes, delay);
        } else if (delay >= p.targetDelay) {
            multiplicativeDecrease(flow, now);
        }
        bound(flow);
        if (received[flow] > p.adjustBytes || now - lastAdjust[flow] > p.adjustPeriod) {
            adjust(flow, now);
        }
        bound(flow);
    }

    /**
     * A trimmed packet of {@code bytes} came back as a NACK: the delay counts as a full queue, and the window shrinks
     * unless {@code shrink} is false (a last-hop trim while the receiver's credit paces the flow too).
     */
    void onNack(final int flow, final long bytes, final long rtt, final boolean shrink, final long now) {
        lowerBase(flow, rtt);
        bytesIgnored[flow] += bytes;
        updateDelay(flow, p.networkRtt, true);
        quickAdaptDue[flow] = true;
        if (!quickAdapt(flow, true, true, 0, now) && shrink) {
            window[flow] -= bytes;
            bound(flow);
        }
    }

    /** A packet timed out and is sent again: it leaves the window. */
    void onTimeout(final int flow, final long bytes) {
        window[flow] = Math.max(window[flow] - bytes, p.packetBytes);
    }

    private boolean quickAdapt(final int flow, final boolean loss, final boolean marked, final long delay, final long now) {
        boolean done = false;
        if (bytesIgnored[flow] < bytesToIgnore[flow] && marked) {
            done = true;
        } else if (now > quickAdaptEnd[flow]) {
            if (quickAdaptEnd[flow] != 0 && (quickAdaptDue[flow] || loss || delay > p.quickAdaptThreshold)
                && achieved[flow] < (maxWindow[flow] >> p.quickAdaptGate)) {
                window[flow] = Math.max(achieved[flow], p.minWindow);
                bytesToIgnore[flow] = inFlightAtQuickAdapt;
                bytesIgnored[flow] = 0;
                quickAdaptDue[flow] = false;
                quickAdapts[flow]++;
                done = true;
            }
            achieved[flow] = 0;
            quickAdaptEnd[flow] = now + baseRtt[flow] + p.targetDelay;
        }
        if (done) {
            increase[flow] = 0;
            received[flow] = 0;
        }
        return done;
    }

    /** The bytes in flight, told before each step: quick adapt ignores the marks on what was already sent. */
    private long inFlightAtQuickAdapt;

    void inFlight(final long bytes) {
        inFlightAtQuickAdapt = bytes;
    }

    private void proportionalIncrease(final int flow, final long bytes, final long delay) {
        if (delay < 1_000_000) {
            fastCount[flow] += bytes;
            if (fastCount[flow] > window[flow] || fast[flow]) {
                window[flow] = (long) (window[flow] + bytes * p.fastIncreaseScale);
                fast[flow] = true;
                return;
            }
        } else {
            fastCount[flow] = 0;
        }
        fast[flow] = false;
        increase[flow] = (long) (increase[flow] + p.alpha * bytes * (p.targetDelay - delay));
    }

    private void multiplicativeDecrease(final int flow, final long now) {
        fast[flow] = false;
        fastCount[flow] = 0;
        final long average = averageDelay[flow];
        if (average > p.targetDelay && now - lastDecrease[flow] > baseRtt[flow]) {
            window[flow] = (long) (window[flow] * Math.max(1 - p.gamma * (average - p.targetDelay) / average, 0.5));
            window[flow] = Math.max(window[flow], p.minWindow);
            lastDecrease[flow] = now;
        }
    }

    private void adjust(final int flow, final long now) {
        window[flow] += increase[flow] / window[flow];
        if (now - lastAdjust[flow] >= p.adjustPeriod) {
            window[flow] = (long) (window[flow] + p.eta);
            lastAdjust[flow] = now;
        }
        increase[flow] = 0;
        received[flow] = 0;
    }

    private void bound(final int flow) {
        // Never below one packet, or the flow could not send again.
        window[flow] = Math.max(Math.min(window[flow], maxWindow[flow]), p.minWindow);
    }
}
