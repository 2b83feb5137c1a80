package io.trimswitch.dataplane.counters;

/**
 * What a counter of the switch counts: the type id of its entry in a {@link CounterRegistry}, so that a reader in
 * another process tells the metrics apart without reading labels. Each entry's key adds the port, an index within the
 * type (a trim kind, a reason's ordinal, a queue) and a short name (the reason or kind as users see it). The ids are
 * part of the counters file's format: new types take new ids.
 */
public enum CounterType {
    RX_PACKETS(1, "rxPackets"),
    RX_BYTES(2, "rxBytes"),
    /** Datagrams (UDP ports) or frames (interface ports) that reached the port's socket. */
    RX_DATAGRAMS(3, "rxDatagrams"),
    /** Packets received on the wire, an offload frame counted by its segments. */
    RX_SEGMENTS(4, "rxSegments"),
    TX_PACKETS(5, "txPackets"),
    TX_BYTES(6, "txBytes"),
    /** Packets sent on the wire, an offload frame counted by its segments. */
    TX_SEGMENTS(7, "txSegments"),
    /** Frames an interface port handed to the kernel. */
    TX_FRAMES(8, "txFrames"),
    /** Packets to the port cut to their header; the index is the trim kind, the name where it was cut. */
    TRIM_PACKETS(9, "trimPackets"),
    TX_TRIM_PACKETS(10, "txTrimPackets"),
    DROPPED_TRIM_PACKETS(11, "droppedTrimPackets"),
    UNTRIMMABLE_IPV6_PACKETS(12, "untrimmableIpv6Packets"),
    /** Ports that frames arriving on the port were flooded to, by the traffic manager's replication: a copy each. */
    FLOODED_PACKETS(13, "floodedPackets"),
    /** Packets dropped; the name is the reason. */
    DROPS(14, "drops"),
    /** Packets received whose flags or DSCP class them as headers but that are longer than any header the switch makes. */
    OVERSIZE_CONTROL_PACKETS(31, "oversizeControlPackets"),
    /**
     * Frames that arrived on the port and were flooded, each counted once, as {@link #RX_PACKETS} counts them: {@link
     * #FLOODED_PACKETS} less these are the extra copies flooding made, which the counters' identity adds to what was received.
     */
    FLOODED_FRAMES(32, "floodedFrames"),
    // Gauges: set by one sampling thread, not counted up.
    DATA_QUEUE_DEPTH(20, "dataQueueDepth"),
    HEADER_QUEUE_DEPTH(21, "headerQueueDepth"),
    DATA_QUEUE_MAX_DEPTH(22, "dataQueueMaxDepth"),
    HEADER_QUEUE_MAX_DEPTH(23, "headerQueueMaxDepth"),
    /** The data queue's depth that departing packets left behind, at a quantile; the name is p50, p90, p99 or max. */
    DATA_QUEUE_DEPTH_QUANTILE(24, "dataQueueDepth"),
    HEADER_QUEUE_DEPTH_QUANTILE(25, "headerQueueDepth"),
    /** With traffic classes, per data queue (the index; the name its discard action): packets queued. */
    TC_QUEUE_PACKETS(26, "queued"),
    /** Packets that met the traffic class's queue full. */
    TC_QUEUE_OVERFLOW_PACKETS(27, "overflowed"),
    TC_QUEUE_MAX_DEPTH(28, "maxDepth"),
    /** An interface port's link: 1 while it carries frames, 0 while it is down or its interface is gone. */
    LINK_UP(40, "up");

    /** Type ids start here, clear of the small ids that Agrona and Aeron tools use for their own counters. */
    private static final int BASE = 0x7453_0000;
    private static final CounterType[] BY_ID = new CounterType[64];

    static {
        for (final CounterType type : values()) {
            BY_ID[type.id - BASE] = type;
        }
    }

    private final int id;
    private final String key;

    CounterType(final int id, final String key) {
        this.id = BASE + id;
        this.key = key;
    }

    /** The type id of this metric's entries. */
    public int id() {
        return id;
    }

    /** How {@code stats} names it. */
    public String key() {
        return key;
    }

    /** The type of {@code typeId}, or null for an entry that is not one of the switch's. */
    public static CounterType of(final int typeId) {
        final int index = typeId - BASE;
        return index >= 0 && index < BY_ID.length ? BY_ID[index] : null;
    }
}
