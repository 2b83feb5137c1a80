package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OffloadHeaderTest {
    private static final int HEADER = 6;
    private static final int FRAME = HEADER + OffloadHeader.LENGTH;
    private static final int IP = FRAME + EthernetHeader.LENGTH;
    private static final int UDP = IP + Ipv4Header.MIN_LENGTH;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[70_000]);

    @Test
    void anOffloadFrameCountsAsTheSegmentsItBecomesOnTheWire() {
        // A 64 KB TCP offload frame: 66 bytes of headers, then 1448-byte segments.
        offload(4, 66, 1448);
        assertEquals(46, OffloadHeader.segments(buffer, HEADER, 66 + 45 * 1448 + 1));
        assertEquals(45, OffloadHeader.segments(buffer, HEADER, 66 + 45 * 1448));
        OffloadHeader.clear(buffer, HEADER);
        assertEquals(1, OffloadHeader.segments(buffer, HEADER, 66 + 45 * 1448));
    }

    @Test
    void aChecksumLeftToOffloadIsCompletedAsTheReceiverChecksIt() {
        final int payload = 333;
        final int udpLength = UdpHeader.LENGTH + payload;
        Ipv4Header.write(buffer, IP, 10, Ipv4Header.MIN_LENGTH + udpLength, 1, Ipv4Header.PROTOCOL_UDP, 0x0A09_0001, 0x0A09_0002);
        UdpHeader.write(buffer, UDP, 40_000, 666, udpLength);
        for (int i = 0; i < payload; i++) {
            buffer.putByte(UDP + UdpHeader.LENGTH + i, (byte) (i * 7 + 1));
        }
        // As Linux leaves it: the pseudo-header's sum in the checksum field, the rest to whoever sends the frame.
        final long pseudo = 0x0A09L + 0x0001 + 0x0A09 + 0x0002 + Ipv4Header.PROTOCOL_UDP + udpLength;
        buffer.putShort(UDP + UdpHeader.CHECKSUM_FIELD_OFFSET, (short) fold(pseudo), ByteOrder.BIG_ENDIAN);
        buffer.putByte(HEADER, (byte) OffloadHeader.FLAG_NEEDS_CHECKSUM);
        buffer.putShort(HEADER + 6, (short) (UDP - FRAME), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(HEADER + 8, (short) UdpHeader.CHECKSUM_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int frameLength = UDP + udpLength - FRAME;

        assertTrue(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, frameLength));

        // The receiver's check: pseudo-header plus the whole datagram, checksum included, sums to all ones.
        long sum = pseudo;
        for (int at = UDP; at < UDP + udpLength; at += 2) {
            sum += at + 1 < UDP + udpLength ? buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF : (buffer.getByte(at) & 0xFF) << 8;
        }
        assertEquals(0xFFFF, fold(sum));
        assertEquals(0, OffloadHeader.flags(buffer, HEADER), "nothing is left for the kernel to complete");
    }

    @Test
    void aHeaderThatPointsPastItsFrameIsRefused() {
        buffer.putByte(HEADER, (byte) OffloadHeader.FLAG_NEEDS_CHECKSUM);
        buffer.putShort(HEADER + 6, (short) 60, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(HEADER + 8, (short) 6, ByteOrder.LITTLE_ENDIAN);
        assertFalse(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, 64));
    }

    private void offload(final int gsoType, final int headers, final int gsoSize) {
        buffer.putByte(HEADER + 1, (byte) gsoType);
        buffer.putShort(HEADER + 2, (short) headers, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(HEADER + 4, (short) gsoSize, ByteOrder.LITTLE_ENDIAN);
    }

    private static int fold(final long value) {
        long sum = value;
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }
}
