package io.trimswitch.ndp.live;

import io.trimswitch.ndp.NdpFlows;

/**
 * Each flow's length in packets as a live host knows it, for its NDP state machines: a sender's from its settings, a
 * receiver's learnt from the flow's first packet; a flow cut short gets shorter.
 */
final class FlowLengths implements NdpFlows {
    private final int[] packets;
    private final int windowPackets;

    /** {@code flows} flows of no packets yet; a sender's initial window of {@code windowPackets} (0: a receiver's). */
    FlowLengths(final int flows, final int windowPackets) {
        this.packets = new int[flows];
        this.windowPackets = windowPackets;
    }

    @Override
    public int flows() {
        return packets.length;
    }

    @Override
    public int size(final int flow) {
        return packets[flow];
    }

    @Override
    public int window(final int flow) {
        return Math.min(windowPackets, packets[flow]);
    }

    void set(final int flow, final int length) {
        packets[flow] = length;
    }
}
