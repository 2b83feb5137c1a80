package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/** IPv4 header (RFC 791) at a given offset, read and written in place. */
public final class Ipv4Header {
    public static final int VERSION_IHL_FIELD_OFFSET = 0;
    public static final int TOS_FIELD_OFFSET = 1;
    public static final int TOTAL_LENGTH_FIELD_OFFSET = 2;
    public static final int IDENTIFICATION_FIELD_OFFSET = 4;
    public static final int FLAGS_FRAGMENT_FIELD_OFFSET = 6;
    public static final int TTL_FIELD_OFFSET = 8;
    public static final int PROTOCOL_FIELD_OFFSET = 9;
    public static final int CHECKSUM_FIELD_OFFSET = 10;
    public static final int SOURCE_FIELD_OFFSET = 12;
    public static final int DESTINATION_FIELD_OFFSET = 16;
    public static final int MIN_LENGTH = 20;
    public static final int PROTOCOL_UDP = 17;
    public static final int PROTOCOL_TCP = 6;
    public static final int DONT_FRAGMENT = 0x4000;

    private Ipv4Header() {
    }

    public static int version(final UnsafeBuffer buffer, final int ip) {
        return (buffer.getByte(ip + VERSION_IHL_FIELD_OFFSET) >>> 4) & 0xF;
    }

    /** Header length in bytes (IHL × 4). */
    public static int headerLength(final UnsafeBuffer buffer, final int ip) {
        return (buffer.getByte(ip + VERSION_IHL_FIELD_OFFSET) & 0xF) << 2;
    }

    public static int tos(final UnsafeBuffer buffer, final int ip) {
        return buffer.getByte(ip + TOS_FIELD_OFFSET) & 0xFF;
    }

    public static int dscp(final UnsafeBuffer buffer, final int ip) {
        return tos(buffer, ip) >>> 2;
    }

    /** Rewrites the DSCP and keeps the ECN bits. */
    public static void dscp(final UnsafeBuffer buffer, final int ip, final int dscp) {
        final int ecn = tos(buffer, ip) & 0x3;
        buffer.putByte(ip + TOS_FIELD_OFFSET, (byte) ((dscp << 2) | ecn));
    }

    public static int totalLength(final UnsafeBuffer buffer, final int ip) {
        return buffer.getShort(ip + TOTAL_LENGTH_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void totalLength(final UnsafeBuffer buffer, final int ip, final int length) {
        buffer.putShort(ip + TOTAL_LENGTH_FIELD_OFFSET, (short) length, ByteOrder.BIG_ENDIAN);
    }

    public static int ttl(final UnsafeBuffer buffer, final int ip) {
        return buffer.getByte(ip + TTL_FIELD_OFFSET) & 0xFF;
    }

    public static void ttl(final UnsafeBuffer buffer, final int ip, final int ttl) {
        buffer.putByte(ip + TTL_FIELD_OFFSET, (byte) ttl);
    }

    public static int protocol(final UnsafeBuffer buffer, final int ip) {
        return buffer.getByte(ip + PROTOCOL_FIELD_OFFSET) & 0xFF;
    }

    public static int checksum(final UnsafeBuffer buffer, final int ip) {
        return buffer.getShort(ip + CHECKSUM_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static int source(final UnsafeBuffer buffer, final int ip) {
        return buffer.getInt(ip + SOURCE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    public static void source(final UnsafeBuffer buffer, final int ip, final int address) {
        buffer.putInt(ip + SOURCE_FIELD_OFFSET, address, ByteOrder.BIG_ENDIAN);
    }

    public static int destination(final UnsafeBuffer buffer, final int ip) {
        return buffer.getInt(ip + DESTINATION_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    public static void destination(final UnsafeBuffer buffer, final int ip, final int address) {
        buffer.putInt(ip + DESTINATION_FIELD_OFFSET, address, ByteOrder.BIG_ENDIAN);
    }

    /** Writes a 20-byte header with no options and a correct checksum. */
    public static void write(
        final UnsafeBuffer buffer, final int ip, final int dscp, final int totalLength,
        final int identification, final int protocol, final int source, final int destination) {
        buffer.putByte(ip + VERSION_IHL_FIELD_OFFSET, (byte) 0x45);
        buffer.putByte(ip + TOS_FIELD_OFFSET, (byte) (dscp << 2));
        buffer.putShort(ip + TOTAL_LENGTH_FIELD_OFFSET, (short) totalLength, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ip + IDENTIFICATION_FIELD_OFFSET, (short) identification, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ip + FLAGS_FRAGMENT_FIELD_OFFSET, (short) DONT_FRAGMENT, ByteOrder.BIG_ENDIAN);
        buffer.putByte(ip + TTL_FIELD_OFFSET, (byte) 64);
        buffer.putByte(ip + PROTOCOL_FIELD_OFFSET, (byte) protocol);
        buffer.putInt(ip + SOURCE_FIELD_OFFSET, source, ByteOrder.BIG_ENDIAN);
        buffer.putInt(ip + DESTINATION_FIELD_OFFSET, destination, ByteOrder.BIG_ENDIAN);
        // The sum of the words just written, without reading them back.
        final long sum = (0x4500 | (dscp << 2)) + totalLength + (identification & 0xFFFF) + DONT_FRAGMENT
            + ((64 << 8) | protocol) + (source >>> 16) + (source & 0xFFFF) + (destination >>> 16) + (destination & 0xFFFF);
        buffer.putShort(ip + CHECKSUM_FIELD_OFFSET, (short) ~fold((int) sum), ByteOrder.BIG_ENDIAN);
    }

    /**
     * Rewrites the TOS byte and total length and patches the checksum incrementally (RFC 1624,
     * HC' = ~(~HC + ~m + m')), so a trim never re-reads the whole header.
     */
    public static void rewriteTosAndLength(final UnsafeBuffer buffer, final int ip, final int tos, final int totalLength) {
        final int oldTosWord = buffer.getShort(ip + VERSION_IHL_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final int oldLength = totalLength(buffer, ip);
        final int newTosWord = (oldTosWord & 0xFF00) | (tos & 0xFF);
        int sum = ~checksum(buffer, ip) & 0xFFFF;
        sum += (~oldTosWord & 0xFFFF) + newTosWord + (~oldLength & 0xFFFF) + (totalLength & 0xFFFF);
        buffer.putByte(ip + TOS_FIELD_OFFSET, (byte) tos);
        totalLength(buffer, ip, totalLength);
        buffer.putShort(ip + CHECKSUM_FIELD_OFFSET, (short) ~fold(sum), ByteOrder.BIG_ENDIAN);
    }

    /** Recomputes the header checksum over the header length the IHL field gives. */
    public static void updateChecksum(final UnsafeBuffer buffer, final int ip) {
        buffer.putShort(ip + CHECKSUM_FIELD_OFFSET, (short) 0, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ip + CHECKSUM_FIELD_OFFSET, (short) computeChecksum(buffer, ip), ByteOrder.BIG_ENDIAN);
    }

    /** True when the header's one's-complement sum, checksum included, is 0xFFFF (never for a header below 20 B). */
    public static boolean checksumValid(final UnsafeBuffer buffer, final int ip) {
        final int headerLength = headerLength(buffer, ip);
        return headerLength >= MIN_LENGTH && checksumValid(buffer, ip, headerLength,
            buffer.getLong(ip, ByteOrder.BIG_ENDIAN), buffer.getLong(ip + 8, ByteOrder.BIG_ENDIAN));
    }

    /**
     * The same check for a parser that has already loaded the header's first sixteen bytes (big-endian, as
     * {@code firstWords} and {@code secondWords}): only the destination and any options are read again.
     */
    public static boolean checksumValid(
        final UnsafeBuffer buffer, final int ip, final int headerLength, final long firstWords, final long secondWords) {
        long sum = (firstWords >>> 32) + (firstWords & 0xFFFF_FFFFL) + (secondWords >>> 32) + (secondWords & 0xFFFF_FFFFL);
        for (int i = 16; i < headerLength; i += 4) {
            sum += buffer.getInt(ip + i, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
        }
        return foldLong(sum) == 0xFFFF;
    }

    /** The checksum the header should carry, computed with the checksum field taken as zero. */
    public static int computeChecksum(final UnsafeBuffer buffer, final int ip) {
        final int sum = onesComplementSum(buffer, ip, headerLength(buffer, ip)) - checksum(buffer, ip);
        return ~fold(sum) & 0xFFFF;
    }

    /** RFC 1071 sum, 32 bits at a time (the sum of 16-bit words folds the same way). */
    private static int onesComplementSum(final UnsafeBuffer buffer, final int ip, final int length) {
        long sum = 0;
        for (int i = 0; i < length; i += 4) {
            sum += buffer.getInt(ip + i, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
        }
        return foldLong(sum);
    }

    /** Folds a sum of 32-bit words to 16 bits, end-around carries included. */
    private static int foldLong(final long wordSum) {
        long sum = (wordSum & 0xFFFF_FFFFL) + (wordSum >>> 32);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return fold((int) sum);
    }

    private static int fold(final int sum) {
        int folded = sum;
        while ((folded >>> 16) != 0) {
            folded = (folded & 0xFFFF) + (folded >>> 16);
        }
        return folded;
    }

    /** The address of host {@code host} in the /24 of switch port {@code port}: 10.0.port.host. */
    public static int portAddress(final int port, final int host) {
        return (10 << 24) | ((port >>> 8 & 0xFF) << 16) | ((port & 0xFF) << 8) | (host & 0xFF);
    }
}
