package io.trimswitch.pipelines;

import io.trimswitch.dataplane.packet.PacketPool;

/** The forwarding lookup of the ingress path; replaceable per switch. */
public interface ForwardingStage {
    int NO_ROUTE = -1;
    /** Bridged: the destination is unknown, broadcast or multicast: to every port of {@link #floodPorts} but the ingress. */
    int FLOOD = -2;
    /** Routed: the TTL would reach zero. */
    int TTL_EXPIRED = -3;
    /** Bridged: the destination lives behind the port the frame came in on: nothing to forward. */
    int FILTERED = -4;

    /**
     * The egress port for packet {@code handle}, or {@link #NO_ROUTE}, {@link #TTL_EXPIRED}, {@link #FLOOD} or
     * {@link #FILTERED}. May rewrite the frame (next-hop MAC, TTL).
     */
    int egressPort(PacketPool pool, int handle, int packetClass);

    /**
     * Where a {@link #FLOOD} of a frame that came in on {@code ingressPort} goes: ports of the switch, that one among them
     * (the pipeline skips it). Read only, on the thread of the shard that owns {@code ingressPort}.
     */
    default int[] floodPorts(final int ingressPort) {
        return new int[0];
    }

    /** Whether this stage ever answers {@link #FLOOD}: its pipelines then need a traffic manager that replicates. */
    default boolean floods() {
        return false;
    }
}
