package io.trimswitch.pipeline;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The model's default table: 10.0.p.0/24 is behind port p. Frames that are not IPv4 go to the port
 * whose host MAC (02:00:00:00:00:pp) they are addressed to.
 */
public final class PortSubnetForwarding implements ForwardingStage {
    private final int ports;

    public PortSubnetForwarding(final int ports) {
        this.ports = ports;
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int port;
        if ((packetClass & PacketClass.IPV4) != 0) {
            final int destination = Ipv4Header.destination(buffer, frame + EthernetHeader.LENGTH);
            if ((destination >>> 24) != 10) {
                return NO_ROUTE;
            }
            port = (destination >>> 8) & 0xFFFF;
        } else {
            final long mac = EthernetHeader.destination(buffer, frame);
            if ((mac & 0xFFFF_FFFF_0000L) != 0x0200_0000_0000L) {
                return NO_ROUTE;
            }
            port = (int) (mac & 0xFFFF);
        }
        return port < ports ? port : NO_ROUTE;
    }
}
