package io.trimswitch.pipelines;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * Forwarding already decided before the pipeline: the ports' learning bridge set each frame's egress
 * port (one copy per port when it floods), and the pipeline takes it as it is.
 */
public final class PresetForwarding implements ForwardingStage {
    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        final int port = pool.egressPort(handle);
        return port >= 0 ? port : NO_ROUTE;
    }
}
