package io.trimswitch.dataplane.counters;

/**
 * Every way a packet can leave the switch other than being delivered, in either clock and at any component: the
 * pipelines and queues of the model, and a live switch's ports of every kind (UDP/VXLAN sockets, AF_PACKET interfaces)
 * and the shard that owns them. One vocabulary: each reason is one drops counter of a port, its label the name in
 * reports, {@code stats}, the counters file and the metrics endpoint, and its ordinal the counter's index, so that no
 * two reasons share an index.
 */
public enum DropReason {
    /** Shorter than its headers: the Ethernet or IPv4 header is cut, the IPv4 total length runs past the frame, or an
     * interface's ring slot cut the frame short. */
    TRUNCATED("truncated"),
    /** An IPv4 ethertype over a header that is not IPv4: version not 4, header length below 20 B or above the total length. */
    BAD_IPV4_HEADER("badIpv4Header"),
    /** The IPv4 header checksum does not add up. */
    BAD_IPV4_CHECKSUM("badIpv4Checksum"),
    /** An IPv6 ethertype over a header that is not IPv6 (version not 6), or extension headers that run past the payload. */
    BAD_IPV6_HEADER("badIpv6Header"),
    /** Larger than the port or the switch's packet buffers take; never cut. */
    OVERSIZE("oversize"),
    /** No forwarding entry for the destination. */
    NO_ROUTE("noRoute"),
    /** Routed: the IPv4 TTL would have reached zero. */
    TTL_EXPIRED("ttlExpired"),
    /** A packet that may not be trimmed met a full data queue. */
    DATA_QUEUE_FULL("dataQueueFull"),
    /** A header (trimmed, or an NDP control packet) met a full header queue; for trimmed packets SAI calls it a dropped trim packet. */
    HEADER_QUEUE_FULL("headerQueueFull"),
    /** A deflected packet met a full DoD queue. */
    DOD_OVERFLOW("dodOverflow"),
    /** A mirrored header met a full mirror queue. */
    MIRROR_OVERFLOW("mirrorOverflow"),
    /** Real time: more frames came, faster than the port's link, than its receive ring or backlog holds. */
    RX_OVERFLOW("rxOverflow"),
    /** The packet pool (or the shard's share of it) had no free buffer. */
    BUFFER_EXHAUSTED("bufferExhausted"),
    /** Still inside the switch when the run ended. */
    IN_FLIGHT_AT_END("inFlightAtEnd"),
    /** A link failed under the packet (a network's, sent onto it or on it after it went down), or a live port's link is
     * down (either end) or its interface gone: nothing can leave by it. */
    LINK_DOWN("linkDown"),
    /** Live: a datagram or frame too short to hold its headers. */
    TOO_SHORT("tooShort"),
    BAD_VXLAN_FLAGS("badVxlanFlags"),
    WRONG_VNI("wrongVni"),
    /** Live: a datagram from another host than the port's. */
    WRONG_SOURCE("wrongSource"),
    /** Live: a UDP port that has not learned its host yet has nowhere to send. */
    NO_REMOTE("noRemote"),
    TX_BUSY("txBusy"),
    SOCKET_ERROR("socketError"),
    VLAN_TAGGED("vlanTagged"),
    MTU_EXCEEDED("mtuExceeded"),
    /** Live: the kernel found the port's receive ring full: the shard did not keep up with the host's burst. */
    RING_OVERFLOW("ringOverflow"),
    /** Live: the kernel found the UDP socket's receive buffer full. */
    SOCKET_OVERFLOW("socketOverflow"),
    /** Live: the port was removed while the switch runs ({@code ctl del-port}). */
    PORT_REMOVED("portRemoved"),
    /** Live: a bridged frame for the port it came from: nothing to forward. */
    FILTERED("filtered"),
    /** Live: leaving by a tunnel, a frame whose offload header points outside it: its checksum cannot be completed. */
    BAD_OFFLOAD("badOffload"),
    /** Live: sent to an IEEE 802.1D reserved group address (01:80:C2:00:00:0x): link-local, never forwarded by a bridge. */
    RESERVED_GROUP("reservedGroup"),
    /**
     * Live: a frame came to an AF_XDP port while every buffer lent to the kernel for arrivals was in use (its fill ring
     * empty): the shard held them, or gave them back too slowly.
     */
    FILL_RING_EMPTY("fillRingEmpty");

    private final String label;

    DropReason(final String label) {
        this.label = label;
    }

    /** The name used in reports and counters. */
    public String label() {
        return label;
    }

    /**
     * Whether the switch's own components count it (the pipelines, the traffic manager, recirculation, a network's
     * links), in either clock; the others are a live port's, which its kind of port counts.
     */
    public boolean countedByComponents() {
        return ordinal() <= LINK_DOWN.ordinal();
    }

    /** This reason's drops counter for {@code port}. */
    public CounterName at(final int port) {
        return new CounterName(CounterType.DROPS, port, ordinal(), label);
    }
}
