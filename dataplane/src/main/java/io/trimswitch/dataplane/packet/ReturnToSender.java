package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.MutableDirectBuffer;

/**
 * NDP's return-to-sender: when a header cannot be queued towards its receiver, swap source and
 * destination so the header goes back to the sender, which then learns of the loss at once.
 * Swapping addresses leaves the IPv4 checksum valid (the one's-complement sum commutes).
 */
public final class ReturnToSender {
    private ReturnToSender() {
    }

    public static void swapAddresses(final MutableDirectBuffer buffer, final int frame, final int packetClass) {
        final long destinationMac = EthernetHeader.destination(buffer, frame);
        EthernetHeader.destination(buffer, frame, EthernetHeader.source(buffer, frame));
        EthernetHeader.source(buffer, frame, destinationMac);
        if ((packetClass & PacketClass.IPV4) == 0) {
            return;
        }
        final int ip = frame + EthernetHeader.LENGTH;
        final int destination = Ipv4Header.destination(buffer, ip);
        Ipv4Header.destination(buffer, ip, Ipv4Header.source(buffer, ip));
        Ipv4Header.source(buffer, ip, destination);
        if ((packetClass & PacketClass.UDP) != 0) {
            final int udp = ip + Ipv4Header.headerLength(buffer, ip);
            final int destinationPort = UdpHeader.destinationPort(buffer, udp);
            UdpHeader.destinationPort(buffer, udp, UdpHeader.sourcePort(buffer, udp));
            UdpHeader.sourcePort(buffer, udp, destinationPort);
        }
    }
}
