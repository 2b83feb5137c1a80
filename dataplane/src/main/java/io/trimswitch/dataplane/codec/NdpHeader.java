package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The NDP-style transport shim that follows UDP on the configured port [666], as the Tofino
 * reference program parses it: flags, next protocol, a 16-bit sequence number, the pull target and
 * a reserved field. Control packets (ACK, NACK, PULL) are never trimmed; CHOPPED marks a trimmed
 * packet.
 */
public final class NdpHeader {
    public static final int FLAGS_FIELD_OFFSET = 0;
    public static final int NEXT_PROTOCOL_FIELD_OFFSET = 1;
    public static final int SEQUENCE_FIELD_OFFSET = 2;
    public static final int PULL_TARGET_FIELD_OFFSET = 4;
    /**
     * Reserved in NDP's header. Hosts that spray over a fabric write there the path they chose for the packet, and the
     * fabric's leaves follow it: NDP's source routing, carried as entropy. Zero through a single switch.
     */
    public static final int RESERVED_FIELD_OFFSET = 6;
    public static final int LENGTH = 8;
    public static final int DEFAULT_UDP_PORT = 666;

    public static final int FLAG_DATA = 1;
    public static final int FLAG_ACK = 1 << 1;
    public static final int FLAG_NACK = 1 << 2;
    public static final int FLAG_PULL = 1 << 3;
    public static final int CONTROL_FLAGS = FLAG_ACK | FLAG_NACK | FLAG_PULL;
    public static final int FLAG_CHOPPED = 1 << 7;

    private NdpHeader() {
    }

    public static int flags(final UnsafeBuffer buffer, final int ndp) {
        return buffer.getByte(ndp + FLAGS_FIELD_OFFSET) & 0xFF;
    }

    public static void flags(final UnsafeBuffer buffer, final int ndp, final int flags) {
        buffer.putByte(ndp + FLAGS_FIELD_OFFSET, (byte) flags);
    }

    public static int sequence(final UnsafeBuffer buffer, final int ndp) {
        return buffer.getShort(ndp + SEQUENCE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static int pullTarget(final UnsafeBuffer buffer, final int ndp) {
        return buffer.getShort(ndp + PULL_TARGET_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** The path a spraying host chose (the reserved field). */
    public static int path(final UnsafeBuffer buffer, final int ndp) {
        return buffer.getShort(ndp + RESERVED_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void write(
        final UnsafeBuffer buffer, final int ndp, final int flags, final int sequence, final int pullTarget) {
        buffer.putByte(ndp + FLAGS_FIELD_OFFSET, (byte) flags);
        buffer.putByte(ndp + NEXT_PROTOCOL_FIELD_OFFSET, (byte) 0);
        buffer.putShort(ndp + SEQUENCE_FIELD_OFFSET, (short) sequence, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ndp + PULL_TARGET_FIELD_OFFSET, (short) pullTarget, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ndp + RESERVED_FIELD_OFFSET, (short) 0, ByteOrder.BIG_ENDIAN);
    }
}
