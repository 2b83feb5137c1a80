package io.trimswitch.dataplane.counters;

/**
 * Why a live switch's port did not take a frame it received or did not send one it was given: one vocabulary for
 * every kind of port (UDP/VXLAN sockets, AF_PACKET interfaces) and for the shard that owns them. Each reason's label is
 * its name in {@code stats}, the counters file and the metrics endpoint.
 */
public enum PortDrop {
    /** A datagram or frame too short to hold its headers. */
    TOO_SHORT("tooShort"),
    BAD_VXLAN_FLAGS("badVxlanFlags"),
    WRONG_VNI("wrongVni"),
    /** A datagram from another host than the port's. */
    WRONG_SOURCE("wrongSource"),
    /** Larger than the port or the switch's buffers take; never cut. */
    OVERSIZE("oversize"),
    /** A UDP port that has not learned its host yet has nowhere to send. */
    NO_REMOTE("noRemote"),
    TX_BUSY("txBusy"),
    SOCKET_ERROR("socketError"),
    /** Cut short by the interface's ring slot. */
    TRUNCATED("truncated"),
    VLAN_TAGGED("vlanTagged"),
    MTU_EXCEEDED("mtuExceeded"),
    /** The kernel found the port's receive ring full: the shard did not keep up with the host's burst. */
    RING_OVERFLOW("ringOverflow"),
    /** The kernel found the UDP socket's receive buffer full. */
    SOCKET_OVERFLOW("socketOverflow"),
    /** The link is down (either end) or the interface is gone: nothing can leave by it. */
    LINK_DOWN("linkDown"),
    /** The port was removed while the switch runs ({@code ctl del-port}). */
    PORT_REMOVED("portRemoved"),
    /** No buffer left in the shard's share of the pool. */
    BUFFER_EXHAUSTED("bufferExhausted"),
    /** More frames came faster than the port's link than its backlog holds. */
    RX_OVERFLOW("rxOverflow"),
    /** A bridged frame for the port it came from: nothing to forward. */
    FILTERED("filtered"),
    /** Leaving by a tunnel, a frame whose offload header points outside it: its checksum cannot be completed. */
    BAD_OFFLOAD("badOffload"),
    /** Sent to an IEEE 802.1D reserved group address (01:80:C2:00:00:0x): link-local, never forwarded by a bridge. */
    RESERVED_GROUP("reservedGroup");

    private final String label;

    PortDrop(final String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** This reason's drops counter for {@code port}. */
    public CounterName at(final int port) {
        return new CounterName(CounterType.DROPS, port, ordinal(), label);
    }
}
