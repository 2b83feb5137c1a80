package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Finds a TCP or UDP checksum that its sender left to offload in a frame that came without an offload header (an
 * AF_XDP frame has none), and writes the offload header that says so, as a packet socket's would have. A Linux host
 * behind a veth leaves only the pseudo-header's sum in the field; a frame forwarded as it is would fail its receiver's
 * check. Marked, the frame's checksum is completed wherever it leaves ({@link OffloadHeader#completeChecksum}, or the
 * kernel behind a packet socket). Completing a checksum that already equals the pseudo-header's sum leaves it as it is,
 * so a whole checksum that happens to equal it is never spoiled.
 */
public final class PartialChecksum {
    private static final int TCP_CHECKSUM_FIELD_OFFSET = 16;
    private static final int TCP_MIN_LENGTH = 20;
    private static final int FRAGMENT_BITS = 0x3FFF;
    private static final int VLAN_TAG = 4;

    private PartialChecksum() {
    }

    /**
     * Clears the offload header at {@code header} and, when the frame at {@code frame} of {@code length} bytes is an
     * unfragmented IPv4 or IPv6 TCP or UDP packet whose checksum field holds just its pseudo-header's sum, marks its
     * checksum as left to complete. True when it marked it.
     */
    public static boolean mark(final UnsafeBuffer buffer, final int header, final int frame, final int length) {
        OffloadHeader.clear(buffer, header);
        if (length < EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + UdpHeader.LENGTH) {
            return false;
        }
        int ip = EthernetHeader.LENGTH;
        int etherType = EthernetHeader.etherType(buffer, frame);
        if (etherType == EthernetHeader.ETHER_TYPE_VLAN) {
            ip += VLAN_TAG;
            etherType = buffer.getShort(frame + ip - 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        final int transport;
        final int protocol;
        final int transportLength;
        long pseudo;
        if (etherType == EthernetHeader.ETHER_TYPE_IPV4) {
            final int at = frame + ip;
            if (Ipv4Header.version(buffer, at) != 4 || (buffer.getShort(at + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN)
                & FRAGMENT_BITS) != 0) {
                return false;
            }
            transport = ip + Ipv4Header.headerLength(buffer, at);
            protocol = Ipv4Header.protocol(buffer, at);
            transportLength = Ipv4Header.totalLength(buffer, at) - (transport - ip);
            pseudo = OnesComplement.sum(buffer, at + Ipv4Header.SOURCE_FIELD_OFFSET, 8);
        } else if (etherType == EthernetHeader.ETHER_TYPE_IPV6) {
            final int at = frame + ip;
            if (length < ip + Ipv6Header.LENGTH) {
                return false;
            }
            transport = ip + Ipv6Header.LENGTH;
            protocol = buffer.getByte(at + Ipv6Header.NEXT_HEADER_FIELD_OFFSET) & 0xFF;
            transportLength = buffer.getShort(at + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            pseudo = OnesComplement.sum(buffer, at + Ipv6Header.SOURCE_FIELD_OFFSET, 32);
        } else {
            return false;
        }
        final int field;
        if (protocol == Ipv4Header.PROTOCOL_TCP && transportLength >= TCP_MIN_LENGTH) {
            field = TCP_CHECKSUM_FIELD_OFFSET;
        } else if (protocol == Ipv4Header.PROTOCOL_UDP && transportLength >= UdpHeader.LENGTH) {
            field = UdpHeader.CHECKSUM_FIELD_OFFSET;
        } else {
            return false;
        }
        if (transport + transportLength > length) {
            return false;
        }
        pseudo += protocol + transportLength;
        final int checksum = buffer.getShort(frame + transport + field, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        // UDP's zero means "no checksum", and nothing is to be completed.
        if (checksum == 0 || checksum != OnesComplement.fold(pseudo)) {
            return false;
        }
        OffloadHeader.needsChecksum(buffer, header, transport, field);
        return true;
    }
}
