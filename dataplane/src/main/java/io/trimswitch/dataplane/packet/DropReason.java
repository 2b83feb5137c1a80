package io.trimswitch.dataplane.packet;

/** Every way a packet can leave the switch other than being delivered; each has its own counter. */
public enum DropReason {
    /** Shorter than its headers: the Ethernet or IPv4 header is cut, or the IPv4 total length runs past the frame. */
    TRUNCATED("truncated"),
    /** An IPv4 ethertype over a header that is not IPv4: version not 4, header length below 20 B or above the total length. */
    BAD_IPV4_HEADER("badIpv4Header"),
    /** The IPv4 header checksum does not add up. */
    BAD_IPV4_CHECKSUM("badIpv4Checksum"),
    /** An IPv6 ethertype over a header that is not IPv6 (version not 6), or extension headers that run past the payload. */
    BAD_IPV6_HEADER("badIpv6Header"),
    /** Larger than the switch's packet buffers. */
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
    /** Real time: the ingress pipeline's receive ring was full (the pipeline's thread fell behind its ports). */
    RX_OVERFLOW("rxOverflow"),
    /** The packet pool had no free buffer. */
    BUFFER_EXHAUSTED("bufferExhausted"),
    /** Still inside the switch when the run ended. */
    IN_FLIGHT_AT_END("inFlightAtEnd"),
    /** A network's link failed under the packet: sent onto it, or on it, after it went down. */
    LINK_DOWN("linkDown");

    private final String label;

    DropReason(final String label) {
        this.label = label;
    }

    /** The name used in reports and counters. */
    public String label() {
        return label;
    }
}
