package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/** IPv6 header (RFC 8200) at a given offset, read and written in place, and the extension headers a switch may skip. */
public final class Ipv6Header {
    public static final int PAYLOAD_LENGTH_FIELD_OFFSET = 4;
    public static final int NEXT_HEADER_FIELD_OFFSET = 6;
    public static final int HOP_LIMIT_FIELD_OFFSET = 7;
    public static final int SOURCE_FIELD_OFFSET = 8;
    public static final int DESTINATION_FIELD_OFFSET = 24;
    public static final int LENGTH = 40;
    public static final int HOP_BY_HOP = 0;
    public static final int ROUTING = 43;
    public static final int FRAGMENT = 44;
    public static final int DESTINATION_OPTIONS = 60;
    public static final int FRAGMENT_LENGTH = 8;

    private Ipv6Header() {
    }

    public static int version(final UnsafeBuffer buffer, final int ip) {
        return (buffer.getByte(ip) >>> 4) & 0xF;
    }

    /** The traffic class: DSCP in its upper six bits, ECN in the lower two. */
    public static int trafficClass(final UnsafeBuffer buffer, final int ip) {
        return (buffer.getShort(ip, ByteOrder.BIG_ENDIAN) >>> 4) & 0xFF;
    }

    public static int dscp(final UnsafeBuffer buffer, final int ip) {
        return trafficClass(buffer, ip) >>> 2;
    }

    /** Rewrites the DSCP and keeps the version, the ECN bits and the flow label. */
    public static void dscp(final UnsafeBuffer buffer, final int ip, final int dscp) {
        final int first = buffer.getShort(ip, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final int ecn = (first >>> 4) & 0x3;
        buffer.putShort(ip, (short) ((first & 0xF00F) | ((dscp << 2 | ecn) << 4)), ByteOrder.BIG_ENDIAN);
    }

    public static int payloadLength(final UnsafeBuffer buffer, final int ip) {
        return buffer.getShort(ip + PAYLOAD_LENGTH_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void payloadLength(final UnsafeBuffer buffer, final int ip, final int length) {
        buffer.putShort(ip + PAYLOAD_LENGTH_FIELD_OFFSET, (short) length, ByteOrder.BIG_ENDIAN);
    }

    public static int nextHeader(final UnsafeBuffer buffer, final int ip) {
        return buffer.getByte(ip + NEXT_HEADER_FIELD_OFFSET) & 0xFF;
    }

    public static int hopLimit(final UnsafeBuffer buffer, final int ip) {
        return buffer.getByte(ip + HOP_LIMIT_FIELD_OFFSET) & 0xFF;
    }

    public static void hopLimit(final UnsafeBuffer buffer, final int ip, final int hops) {
        buffer.putByte(ip + HOP_LIMIT_FIELD_OFFSET, (byte) hops);
    }

    /** Whether {@code header} is an extension header the switch steps over: hop-by-hop, routing, fragment, destination options. */
    public static boolean skippable(final int header) {
        return header == HOP_BY_HOP || header == ROUTING || header == FRAGMENT || header == DESTINATION_OPTIONS;
    }

    /**
     * Whether {@code header} is an extension header the switch does not step over (ESP, AH, mobility, HIP, shim6, the
     * experimental ones): behind it, where the packet's headers end is unknown.
     */
    public static boolean unskippableExtension(final int header) {
        return header == 50 || header == 51 || header == 135 || header == 139 || header == 140 || header == 253 || header == 254;
    }

    /** The length of the extension header at {@code at}: fixed for a fragment header, else its length field × 8 + 8. */
    public static int extensionLength(final UnsafeBuffer buffer, final int at, final int header) {
        return header == FRAGMENT ? FRAGMENT_LENGTH : ((buffer.getByte(at + 1) & 0xFF) + 1) * 8;
    }

    /** A fragment header's offset field is not zero: the fragment does not hold the transport header. */
    public static boolean laterFragment(final UnsafeBuffer buffer, final int fragmentHeader) {
        return (buffer.getShort(fragmentHeader + 2, ByteOrder.BIG_ENDIAN) & 0xFFF8) != 0;
    }

    /** Writes a fixed header with no flow label. */
    public static void write(
        final UnsafeBuffer buffer, final int ip, final int dscp, final int payloadLength, final int nextHeader, final int hopLimit,
        final byte[] source, final byte[] destination) {
        buffer.putInt(ip, 6 << 28 | dscp << 22, ByteOrder.BIG_ENDIAN);
        payloadLength(buffer, ip, payloadLength);
        buffer.putByte(ip + NEXT_HEADER_FIELD_OFFSET, (byte) nextHeader);
        hopLimit(buffer, ip, hopLimit);
        buffer.putBytes(ip + SOURCE_FIELD_OFFSET, source, 0, 16);
        buffer.putBytes(ip + DESTINATION_FIELD_OFFSET, destination, 0, 16);
    }

    /**
     * The UDP checksum over IPv6 (RFC 8200 §8.1): the one's-complement sum of the pseudo-header (addresses, upper-layer
     * length, next header 17) and the {@code udpLength} bytes at {@code udp}, with the checksum field taken as zero.
     * Never 0: over IPv6 a computed zero is sent as 0xFFFF.
     */
    public static int udpChecksum(final UnsafeBuffer buffer, final int ip, final int udp, final int udpLength) {
        long sum = OnesComplement.sum(buffer, ip + SOURCE_FIELD_OFFSET, 32);
        sum += udpLength;
        sum += 17;
        for (int i = 0; i + 1 < udpLength; i += 2) {
            if (i != UdpHeader.CHECKSUM_FIELD_OFFSET) {
                sum += buffer.getShort(udp + i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            }
        }
        if ((udpLength & 1) != 0) {
            sum += (buffer.getByte(udp + udpLength - 1) & 0xFF) << 8;
        }
        final int checksum = ~OnesComplement.fold(sum) & 0xFFFF;
        return checksum == 0 ? 0xFFFF : checksum;
    }
}
