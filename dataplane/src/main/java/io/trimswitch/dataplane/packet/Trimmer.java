package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The trim operation, done in place: cut the frame to the configured size (never below its
 * headers), rewrite the IPv4 total length and checksum (IPv6: the payload length) and the UDP length, remark
 * the DSCP, and set the NDP CHOPPED flag. A frame already shorter than the size keeps its bytes but still gets the marks,
 * because it travelled as a header.
 */
public final class Trimmer {
    private Trimmer() {
    }

    /** Trims the packet {@code handle} of {@code pool} and returns its new length. */
    public static int trim(final PacketPool pool, final int handle, final TrimSettings settings) {
        final int newLength = trim(pool.buffer(handle), pool.offset(handle), pool.length(handle),
            pool.classification(handle), settings, pool.egressPort(handle));
        pool.length(handle, newLength);
        pool.classification(handle, pool.classification(handle) | PacketClass.PRIORITY);
        return newLength;
    }

    /** Trims towards a host-facing port. */
    public static int trim(
        final UnsafeBuffer buffer, final int frame, final int length, final int packetClass, final TrimSettings settings) {
        return trim(buffer, frame, length, packetClass, settings, -1);
    }

    /** Trims towards {@code egressPort}, whose kind (host or fabric) decides the trimmed DSCP. */
    public static int trim(
        final UnsafeBuffer buffer, final int frame, final int length, final int packetClass, final TrimSettings settings,
        final int egressPort) {
        final int dscp = settings.trimmedDscp(egressPort);
        if ((packetClass & PacketClass.IPV6) != 0) {
            return trimIpv6(buffer, frame, length, packetClass, settings, dscp);
        }
        if ((packetClass & PacketClass.IPV4) == 0) {
            throw new IllegalArgumentException("only IP packets are trimmable");
        }
        final int keep = Math.max(settings.sizeBytes(), PacketClass.headersEnd(packetClass));
        final int ip = frame + EthernetHeader.LENGTH;
        final int ipHeader = Ipv4Header.headerLength(buffer, ip);
        final int oldTotal = Ipv4Header.totalLength(buffer, ip);
        final int newTotal = Math.min(oldTotal, keep - EthernetHeader.LENGTH);
        final int newLength = Math.min(length, EthernetHeader.LENGTH + newTotal);
        Ipv4Header.rewriteTosAndLength(buffer, ip, (dscp << 2) | (Ipv4Header.tos(buffer, ip) & 0x3), newTotal);
        if ((packetClass & PacketClass.UDP) != 0) {
            final int udp = ip + ipHeader;
            if (newTotal < oldTotal) {
                UdpHeader.length(buffer, udp, newTotal - ipHeader);
                // The payload the checksum covered is gone; zero means "no checksum" over IPv4.
                UdpHeader.checksum(buffer, udp, 0);
            }
            if ((packetClass & PacketClass.NDP) != 0) {
                final int ndp = udp + UdpHeader.LENGTH;
                NdpHeader.flags(buffer, ndp, NdpHeader.flags(buffer, ndp) | NdpHeader.FLAG_CHOPPED);
                UdpHeader.checksum(buffer, udp, 0);
            }
        }
        return newLength;
    }

    /**
     * IPv6: the payload length shrinks, the traffic class is remarked, and the UDP length and checksum are rewritten.
     * Over IPv6 a UDP checksum may not be left out, so it is computed again over what the header keeps.
     */
    private static int trimIpv6(
        final UnsafeBuffer buffer, final int frame, final int length, final int packetClass, final TrimSettings settings,
        final int dscp) {
        final int keep = Math.max(settings.sizeBytes(), PacketClass.headersEnd(packetClass));
        final int ip = frame + EthernetHeader.LENGTH;
        final int oldPayload = Ipv6Header.payloadLength(buffer, ip);
        final int newPayload = Math.min(oldPayload, keep - EthernetHeader.LENGTH - Ipv6Header.LENGTH);
        final int newLength = Math.min(length, EthernetHeader.LENGTH + Ipv6Header.LENGTH + newPayload);
        Ipv6Header.payloadLength(buffer, ip, newPayload);
        Ipv6Header.dscp(buffer, ip, dscp);
        if ((packetClass & PacketClass.UDP) != 0) {
            final int udp = PacketClass.udpOffset(frame, packetClass);
            final int udpLength = ip + Ipv6Header.LENGTH + newPayload - udp;
            UdpHeader.length(buffer, udp, udpLength);
            if ((packetClass & PacketClass.NDP) != 0) {
                final int ndp = udp + UdpHeader.LENGTH;
                NdpHeader.flags(buffer, ndp, NdpHeader.flags(buffer, ndp) | NdpHeader.FLAG_CHOPPED);
            }
            UdpHeader.checksum(buffer, udp, Ipv6Header.udpChecksum(buffer, ip, udp, udpLength));
        }
        return newLength;
    }
}
