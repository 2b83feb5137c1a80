package io.trimswitch.pipelines;

import io.trimswitch.dataplane.packet.PacketPool;

/** The forwarding lookup of the ingress path; replaceable per switch. */
public interface ForwardingStage {
    int NO_ROUTE = -1;
    /** Routed: the TTL would reach zero. */
    int TTL_EXPIRED = -3;

    /** The egress port for packet {@code handle}, or {@link #NO_ROUTE}. May rewrite the frame (next-hop MAC, TTL). */
    int egressPort(PacketPool pool, int handle, int packetClass);
}
