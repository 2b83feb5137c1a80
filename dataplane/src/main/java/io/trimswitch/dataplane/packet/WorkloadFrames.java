package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds the model's data packets as real frames: the host on port p has MAC 02:00:00:00:00:pp and
 * address 10.0.p.1; data is UDP/IPv4 with the trimmable DSCP, carrying the NDP-style shim.
 */
public final class WorkloadFrames {
    public static final int HOST_ID = 1;
    /** UDP source ports of workload flows start here (the dynamic range). */
    public static final int FLOW_PORT_BASE = 49152;
    /** A host that only receives, on the same port as a sending host (NDP's separate hosts). */
    public static final int RECEIVER_HOST_ID = 2;

    private WorkloadFrames() {
    }

    /** 02:00:00:00:00:pp for host 1 of port p; 02:hh:00:00:00:pp for host hh. */
    public static long hostMac(final int port, final int host) {
        return EthernetHeader.hostMac(port) | (host == HOST_ID ? 0 : (long) (host & 0xFF) << 32);
    }

    /** Writes the headers of one data packet; the payload bytes are left as they are (zeros in a new pool). */
    public static void writeData(
        final UnsafeBuffer buffer, final int frame, final int frameLength, final int sourcePort,
        final int destinationPort, final int flow, final int sequence, final int dscp, final int ndpUdpPort) {
        write(buffer, frame, frameLength, sourcePort, HOST_ID, destinationPort, HOST_ID, flow, NdpHeader.FLAG_DATA, sequence, 0, dscp, ndpUdpPort);
    }

    /**
     * Writes an NDP frame between two hosts, {@code host} being the last octet of each address (and the
     * MAC's second byte): the host sending data on port p is 10.0.p.1, a separate receiving host 10.0.p.2.
     */
    public static void write(
        final UnsafeBuffer buffer, final int frame, final int frameLength, final int sourcePort, final int sourceHost,
        final int destinationPort, final int destinationHost, final int flow, final int flags, final int sequence,
        final int pullTarget, final int dscp, final int ndpUdpPort) {
        if (frameLength < TrimSettings.NDP_HEADERS) {
            throw new IllegalArgumentException("a data frame needs at least " + TrimSettings.NDP_HEADERS + " B, got " + frameLength);
        }
        EthernetHeader.destination(buffer, frame, hostMac(destinationPort, destinationHost));
        EthernetHeader.source(buffer, frame, hostMac(sourcePort, sourceHost));
        EthernetHeader.etherType(buffer, frame, EthernetHeader.ETHER_TYPE_IPV4);
        final int ip = frame + EthernetHeader.LENGTH;
        final int ipLength = frameLength - EthernetHeader.LENGTH;
        Ipv4Header.write(buffer, ip, dscp, ipLength, sequence, Ipv4Header.PROTOCOL_UDP,
            Ipv4Header.portAddress(sourcePort, sourceHost), Ipv4Header.portAddress(destinationPort, destinationHost));
        final int udp = ip + Ipv4Header.MIN_LENGTH;
        UdpHeader.write(buffer, udp, FLOW_PORT_BASE + (flow & 0x3FFF), ndpUdpPort, ipLength - Ipv4Header.MIN_LENGTH);
        NdpHeader.write(buffer, udp + UdpHeader.LENGTH, flags, sequence, pullTarget);
    }
}
