package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One rule of the per-flow opt-out from trimming (SONiC's DISABLE_TRIM ACL action): a packet that matches every
 * field the rule gives is never trimmable, whatever its DSCP or queue. Addresses are IPv4 prefixes; a rule with an
 * address matches no IPv6 packet. A field left out (-1) matches anything.
 */
public final class TrimOptOut {
    private final int source;
    private final int sourceMask;
    private final int destination;
    private final int destinationMask;
    private final boolean addressed;
    private final int protocol;
    private final int firstPort;
    private final int lastPort;
    private final int dscp;

    /**
     * @param sourceLength      prefix length of {@code source}, or -1 for any source
     * @param destinationLength prefix length of {@code destination}, or -1 for any destination
     * @param protocol          IP protocol (6 TCP, 17 UDP), or -1
     * @param firstPort         lowest destination port (UDP or TCP), or -1 for any
     * @param dscp              DSCP, or -1
     */
    public TrimOptOut(
        final int source, final int sourceLength, final int destination, final int destinationLength, final int protocol,
        final int firstPort, final int lastPort, final int dscp) {
        this.sourceMask = mask(sourceLength);
        this.source = source & sourceMask;
        this.destinationMask = mask(destinationLength);
        this.destination = destination & destinationMask;
        this.addressed = sourceLength >= 0 || destinationLength >= 0;
        this.protocol = protocol;
        this.firstPort = firstPort;
        this.lastPort = lastPort;
        this.dscp = dscp;
    }

    private static int mask(final int length) {
        return length <= 0 ? 0 : -1 << (32 - length);
    }

    /** Whether the packet at {@code frame}, already parsed, matches: {@code l4} is its transport header, or -1. */
    boolean matches(final UnsafeBuffer buffer, final int frame, final boolean ipv4, final int packetProtocol, final int l4, final int packetDscp) {
        if (dscp >= 0 && packetDscp != dscp) {
            return false;
        }
        if (protocol >= 0 && packetProtocol != protocol) {
            return false;
        }
        if (firstPort >= 0) {
            if (l4 < 0) {
                return false;
            }
            final int port = UdpHeader.destinationPort(buffer, l4);
            if (port < firstPort || port > lastPort) {
                return false;
            }
        }
        if (addressed) {
            if (!ipv4) {
                return false;
            }
            final int ip = frame + EthernetHeader.LENGTH;
            return (Ipv4Header.source(buffer, ip) & sourceMask) == source && (Ipv4Header.destination(buffer, ip) & destinationMask) == destination;
        }
        return true;
    }
}
