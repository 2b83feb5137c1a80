package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/** UDP header (RFC 768) at a given offset. */
public final class UdpHeader {
    public static final int SOURCE_PORT_FIELD_OFFSET = 0;
    public static final int DESTINATION_PORT_FIELD_OFFSET = 2;
    public static final int LENGTH_FIELD_OFFSET = 4;
    public static final int CHECKSUM_FIELD_OFFSET = 6;
    public static final int LENGTH = 8;

    private UdpHeader() {
    }

    public static int sourcePort(final UnsafeBuffer buffer, final int udp) {
        return buffer.getShort(udp + SOURCE_PORT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void sourcePort(final UnsafeBuffer buffer, final int udp, final int port) {
        buffer.putShort(udp + SOURCE_PORT_FIELD_OFFSET, (short) port, ByteOrder.BIG_ENDIAN);
    }

    public static int destinationPort(final UnsafeBuffer buffer, final int udp) {
        return buffer.getShort(udp + DESTINATION_PORT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void destinationPort(final UnsafeBuffer buffer, final int udp, final int port) {
        buffer.putShort(udp + DESTINATION_PORT_FIELD_OFFSET, (short) port, ByteOrder.BIG_ENDIAN);
    }

    public static int length(final UnsafeBuffer buffer, final int udp) {
        return buffer.getShort(udp + LENGTH_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void length(final UnsafeBuffer buffer, final int udp, final int length) {
        buffer.putShort(udp + LENGTH_FIELD_OFFSET, (short) length, ByteOrder.BIG_ENDIAN);
    }

    public static int checksum(final UnsafeBuffer buffer, final int udp) {
        return buffer.getShort(udp + CHECKSUM_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** Zero means "no checksum" for UDP over IPv4. */
    public static void checksum(final UnsafeBuffer buffer, final int udp, final int checksum) {
        buffer.putShort(udp + CHECKSUM_FIELD_OFFSET, (short) checksum, ByteOrder.BIG_ENDIAN);
    }

    public static void write(
        final UnsafeBuffer buffer, final int udp, final int sourcePort, final int destinationPort, final int length) {
        sourcePort(buffer, udp, sourcePort);
        destinationPort(buffer, udp, destinationPort);
        length(buffer, udp, length);
        checksum(buffer, udp, 0);
    }
}
