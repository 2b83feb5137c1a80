package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The UDP payload a live NDP host sends: the project's NDP shim ({@link NdpHeader}), then a tag that names the
 * packet, then the data. Shim and tag are 22 bytes, so that a frame the switch trims to 64 bytes (Ethernet, IPv4,
 * UDP: 42) still says which packet it was: the shim's 16-bit sequence field holds the low half of the sequence
 * number and the tag the high half, as flows may be longer than 65536 packets.
 */
public final class HostDatagram {
    /** Chosen by the sender per run: a datagram of another run (or another sender) is not one of ours. */
    public static final int SESSION_OFFSET = NdpHeader.LENGTH;
    public static final int FLOW_OFFSET = SESSION_OFFSET + 4;
    public static final int SEQUENCE_HIGH_OFFSET = FLOW_OFFSET + 2;
    /** The flow's length in packets: the receiver learns it from any of the flow's packets. */
    public static final int PACKETS_OFFSET = SEQUENCE_HIGH_OFFSET + 2;
    /** Data bytes this packet carries: a datagram shorter than the header plus these was cut. */
    public static final int PAYLOAD_OFFSET = PACKETS_OFFSET + 4;
    public static final int HEADER_LENGTH = PAYLOAD_OFFSET + 2;
    /** Flows a sender may have, as the tag numbers them. */
    public static final int MAX_FLOWS = 1 << 16;
    /** Ethernet, IPv4 and UDP in front of the datagram on the wire. */
    public static final int FRAME_OVERHEAD = 14 + 20 + 8;

    private HostDatagram() {
    }

    /** Writes the shim and tag; {@code path} goes into the shim's reserved field, as the simulator's spraying hosts do. */
    public static void write(
        final UnsafeBuffer buffer, final int flags, final int session, final int flow, final int sequence, final int pull, final int path,
        final int packets, final int payload) {
        NdpHeader.write(buffer, 0, flags, sequence & 0xFFFF, pull & 0xFFFF);
        buffer.putShort(NdpHeader.RESERVED_FIELD_OFFSET, (short) path, ByteOrder.BIG_ENDIAN);
        buffer.putInt(SESSION_OFFSET, session, ByteOrder.BIG_ENDIAN);
        buffer.putShort(FLOW_OFFSET, (short) flow, ByteOrder.BIG_ENDIAN);
        buffer.putShort(SEQUENCE_HIGH_OFFSET, (short) (sequence >>> 16), ByteOrder.BIG_ENDIAN);
        buffer.putInt(PACKETS_OFFSET, packets, ByteOrder.BIG_ENDIAN);
        buffer.putShort(PAYLOAD_OFFSET, (short) payload, ByteOrder.BIG_ENDIAN);
    }

    public static int flags(final UnsafeBuffer buffer) {
        return NdpHeader.flags(buffer, 0);
    }

    public static int session(final UnsafeBuffer buffer) {
        return buffer.getInt(SESSION_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    public static int flow(final UnsafeBuffer buffer) {
        return buffer.getShort(FLOW_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static int sequence(final UnsafeBuffer buffer) {
        return (buffer.getShort(SEQUENCE_HIGH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF) << 16 | NdpHeader.sequence(buffer, 0);
    }

    public static int packets(final UnsafeBuffer buffer) {
        return buffer.getInt(PACKETS_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    public static int payload(final UnsafeBuffer buffer) {
        return buffer.getShort(PAYLOAD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** ADDR:PORT, as the user wrote it on the command line. */
    public static String name(final java.net.InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /**
     * Whether a data datagram of {@code length} bytes arrived as a header: the switch set CHOPPED (the NDP port), or
     * cut it without the mark (a trimmable DSCP on another port), so its UDP length is short of its payload.
     */
    public static boolean isHeader(final UnsafeBuffer buffer, final int length) {
        return (flags(buffer) & NdpHeader.FLAG_CHOPPED) != 0 || length < HEADER_LENGTH + payload(buffer);
    }
}
