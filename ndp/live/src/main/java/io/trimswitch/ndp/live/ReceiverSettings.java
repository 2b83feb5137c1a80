package io.trimswitch.ndp.live;

import java.net.InetSocketAddress;

/**
 * A live receiver's settings: where it listens, its link's rate (the pace of its PULLs), how long it runs (0: until
 * stopped), how many flows it waits for before it stops (0: none), how long a silent sender's unfinished flow is
 * waited for, and the DSCP of its ACKs, NACKs and PULLs; checked when made.
 */
public record ReceiverSettings(
    InetSocketAddress listen, double rateGbps, long durationNanos, int expectFlows, long silenceNanos, int payloadBytes, int dscp,
    int maxFlows) {
    /** The trimmed DSCP of the project's defaults: the switch queues such packets with the headers, as NDP's control. */
    public static final int CONTROL_DSCP = 11;
    public static final int DEFAULT_MAX_FLOWS = 4096;

    public ReceiverSettings {
        if (!(rateGbps > 0 && rateGbps <= 400)) {
            throw new IllegalArgumentException("the rate must be above 0 and at most 400 Gb/s, got " + rateGbps);
        }
        if (durationNanos < 0 || expectFlows < 0 || silenceNanos < 1) {
            throw new IllegalArgumentException("the duration and flow count must not be negative, the silence limit positive");
        }
        if (payloadBytes < 1 || payloadBytes > 65_000 || dscp < 0 || dscp > 63) {
            throw new IllegalArgumentException("payload 1..65000 bytes and DSCP 0..63");
        }
        if (maxFlows < 1 || maxFlows > 1 << 20 || expectFlows > maxFlows) {
            throw new IllegalArgumentException("a receiver keeps 1.." + (1 << 20) + " flows, and expects no more than it keeps");
        }
    }
}
