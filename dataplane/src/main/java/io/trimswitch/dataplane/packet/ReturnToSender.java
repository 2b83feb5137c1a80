package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * NDP's return-to-sender: when a header cannot be queued towards its receiver, swap source and
 * destination so the header goes back to the sender, which then learns of the loss at once.
 * Swapping addresses leaves the IPv4 and UDP checksums valid (the one's-complement sum commutes).
 */
public final class ReturnToSender {
    private ReturnToSender() {
    }

    public static void swapAddresses(final UnsafeBuffer buffer, final int frame, final int packetClass) {
        final long destinationMac = EthernetHeader.destination(buffer, frame);
        EthernetHeader.destination(buffer, frame, EthernetHeader.source(buffer, frame));
        EthernetHeader.source(buffer, frame, destinationMac);
        final int ip = frame + EthernetHeader.LENGTH;
        final int udp;
        if ((packetClass & PacketClass.IPV4) != 0) {
            final int destination = Ipv4Header.destination(buffer, ip);
            Ipv4Header.destination(buffer, ip, Ipv4Header.source(buffer, ip));
            Ipv4Header.source(buffer, ip, destination);
            udp = ip + Ipv4Header.headerLength(buffer, ip);
        } else if ((packetClass & PacketClass.IPV6) != 0) {
            for (int i = 0; i < 16; i += 8) {
                final long destination = buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET + i);
                buffer.putLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET + i, buffer.getLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET + i));
                buffer.putLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET + i, destination);
            }
            udp = PacketClass.udpOffset(frame, packetClass);
        } else {
            return;
        }
        if ((packetClass & PacketClass.UDP) != 0) {
            final int destinationPort = UdpHeader.destinationPort(buffer, udp);
            UdpHeader.destinationPort(buffer, udp, UdpHeader.sourcePort(buffer, udp));
            UdpHeader.sourcePort(buffer, udp, destinationPort);
        }
    }
}
