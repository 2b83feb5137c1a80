package io.trimswitch.ndp.live;

/**
 * One flow as a live host saw it. {@code fctNanos} is -1 for a flow that did not complete. At the sender, FCT runs
 * from the flow's first packet to its last ACK, {@code headers} counts the NACKs (and returned headers) it got; at the
 * receiver, FCT runs from the first packet that arrived to the last missing one, {@code headers} counts the trimmed
 * headers that arrived and {@code retransmissions} the packets that arrived again after a header or a copy.
 * {@code nackedRetransmissions}: at the sender, the retransmissions a NACK asked for (the others followed a timeout);
 * 0 at the receiver.
 */
public record FlowResult(String peer, int flow, long bytes, long fctNanos, long retransmissions, long headers, long nackedRetransmissions) {
    public boolean complete() {
        return fctNanos >= 0;
    }

    public double fctMicros() {
        return fctNanos / 1e3;
    }

    /** Delivered bits over the flow's completion time; 0 while it is unfinished. */
    public double goodputGbps() {
        return complete() && fctNanos > 0 ? bytes * 8.0 / fctNanos : 0;
    }
}
