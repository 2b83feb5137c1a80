package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The model's default table: 10.0.p.0/24 is behind port p. Frames that are not IPv4 go to the port
 * whose host MAC (02:00:00:00:00:pp) they are addressed to.
 *
 * <p>With separate sending hosts (NDP's evaluation set-up) port p has two hosts: 10.0.p.2 receives on
 * egress port p, and 10.0.p.1, which sends, is reached through its own egress port {@code ports + p}.
 */
public final class PortSubnetForwarding implements ForwardingStage {
    private static final int SENDING_HOST = 1;

    private final int ports;
    private final boolean separateSendingHosts;

    public PortSubnetForwarding(final int ports) {
        this(ports, false);
    }

    public PortSubnetForwarding(final int ports, final boolean separateSendingHosts) {
        this.ports = ports;
        this.separateSendingHosts = separateSendingHosts;
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
            if (separateSendingHosts && port < ports && (destination & 0xFF) == SENDING_HOST) {
                return ports + port;
            }
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
