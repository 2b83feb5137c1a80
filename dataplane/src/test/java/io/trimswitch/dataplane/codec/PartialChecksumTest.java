package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartialChecksumTest {
    private static final int HEADER = 6;
    private static final int FRAME = HEADER + OffloadHeader.LENGTH;
    private static final int SOURCE = 0x0A09_0001;
    private static final int DESTINATION = 0x0A09_0002;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);

    @Test
    void aTcpSegmentLeftToOffloadIsMarkedAndLeavesWithAChecksumItsReceiverAccepts() {
        final int length = ipv4(Ipv4Header.PROTOCOL_TCP, 20 + 1000, false);
        final int tcp = FRAME + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        partial(tcp, 16, pseudo4(Ipv4Header.PROTOCOL_TCP, 20 + 1000));

        assertTrue(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertEquals(OffloadHeader.FLAG_NEEDS_CHECKSUM, OffloadHeader.flags(buffer, HEADER));
        assertEquals(tcp - FRAME, OffloadHeader.checksumStart(buffer, HEADER));
        assertEquals(16, OffloadHeader.checksumOffset(buffer, HEADER));
        assertEquals(1, OffloadHeader.segments(buffer, HEADER, length), "nothing to segment");

        assertTrue(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, length));
        assertEquals(0xFFFF, receiverSum(tcp, 20 + 1000, pseudo4(Ipv4Header.PROTOCOL_TCP, 20 + 1000)));
    }

    @Test
    void aUdpDatagramLeftToOffloadIsMarked() {
        final int length = ipv4(Ipv4Header.PROTOCOL_UDP, UdpHeader.LENGTH + 333, false);
        final int udp = FRAME + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        partial(udp, UdpHeader.CHECKSUM_FIELD_OFFSET, pseudo4(Ipv4Header.PROTOCOL_UDP, UdpHeader.LENGTH + 333));

        assertTrue(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertTrue(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, length));
        assertEquals(0xFFFF, receiverSum(udp, UdpHeader.LENGTH + 333, pseudo4(Ipv4Header.PROTOCOL_UDP, UdpHeader.LENGTH + 333)));
    }

    @Test
    void anIpv6SegmentBehindAVlanTagLeftToOffloadIsMarked() {
        EthernetHeader.etherType(buffer, FRAME, EthernetHeader.ETHER_TYPE_VLAN);
        buffer.putShort(FRAME + 16, (short) EthernetHeader.ETHER_TYPE_IPV6, ByteOrder.BIG_ENDIAN);
        final int ip = FRAME + 18;
        final int payload = 20 + 64;
        buffer.putByte(ip, (byte) 0x60);
        buffer.putShort(ip + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET, (short) payload, ByteOrder.BIG_ENDIAN);
        buffer.putByte(ip + Ipv6Header.NEXT_HEADER_FIELD_OFFSET, (byte) Ipv4Header.PROTOCOL_TCP);
        long pseudo = Ipv4Header.PROTOCOL_TCP + payload;
        for (int i = 0; i < 32; i += 2) {
            buffer.putShort(ip + Ipv6Header.SOURCE_FIELD_OFFSET + i, (short) (0x2001 + i * 77), ByteOrder.BIG_ENDIAN);
            pseudo += 0x2001 + i * 77;
        }
        final int tcp = ip + Ipv6Header.LENGTH;
        fillPayload(tcp, payload);
        partial(tcp, 16, pseudo);
        final int length = tcp + payload - FRAME;

        assertTrue(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertTrue(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, length));
        assertEquals(0xFFFF, receiverSum(tcp, payload, pseudo));
    }

    @Test
    void aWholeChecksumIsLeftAloneAndTheFrameUnmarked() {
        final int length = ipv4(Ipv4Header.PROTOCOL_TCP, 20 + 100, false);
        final int tcp = FRAME + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        final long pseudo = pseudo4(Ipv4Header.PROTOCOL_TCP, 20 + 100);
        partial(tcp, 16, pseudo);
        OffloadHeader.needsChecksum(buffer, HEADER, tcp - FRAME, 16);
        OffloadHeader.completeChecksum(buffer, HEADER, FRAME, length);
        final int whole = buffer.getShort(tcp + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        buffer.putLong(HEADER, -1L);

        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertEquals(0, OffloadHeader.flags(buffer, HEADER), "the offload header is cleared all the same");
        assertEquals(whole, buffer.getShort(tcp + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    @Test
    void completingAWholeChecksumThatEqualsThePseudoHeadersSumLeavesItAsItIs() {
        // Chosen payload bytes make the whole checksum equal the pseudo-header's sum: marking it must do no harm.
        final int payloadBytes = 20 + 2;
        final int length = ipv4(Ipv4Header.PROTOCOL_TCP, payloadBytes, false);
        final int tcp = FRAME + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        final long pseudo = pseudo4(Ipv4Header.PROTOCOL_TCP, payloadBytes);
        final int target = fold(pseudo);
        buffer.putShort(tcp + 16, (short) target, ByteOrder.BIG_ENDIAN);
        buffer.putShort(tcp + 20, (short) 0, ByteOrder.BIG_ENDIAN);
        // Whole means pseudo + segment sums to all ones: the last word makes it so.
        final int rest = fold(pseudo + sumOf(tcp, payloadBytes));
        buffer.putShort(tcp + 20, (short) (0xFFFF - rest), ByteOrder.BIG_ENDIAN);
        assertEquals(0xFFFF, receiverSum(tcp, payloadBytes, pseudo));

        assertTrue(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertTrue(OffloadHeader.completeChecksum(buffer, HEADER, FRAME, length));
        assertEquals(target, buffer.getShort(tcp + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        assertEquals(0xFFFF, receiverSum(tcp, payloadBytes, pseudo));
    }

    @Test
    void framesWithNothingToCompleteAreNotMarked() {
        // UDP without a checksum.
        int length = ipv4(Ipv4Header.PROTOCOL_UDP, UdpHeader.LENGTH + 10, false);
        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        // A fragment: its checksum covers bytes this frame does not carry.
        length = ipv4(Ipv4Header.PROTOCOL_TCP, 20 + 10, true);
        final int tcp = FRAME + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        partial(tcp, 16, pseudo4(Ipv4Header.PROTOCOL_TCP, 20 + 10));
        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        // Cut short: the IP header promises more than the frame holds.
        ipv4(Ipv4Header.PROTOCOL_TCP, 20 + 10, false);
        partial(tcp, 16, pseudo4(Ipv4Header.PROTOCOL_TCP, 20 + 10));
        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, length - 1));
        assertTrue(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        // ARP, and a runt.
        EthernetHeader.etherType(buffer, FRAME, EthernetHeader.ETHER_TYPE_ARP);
        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, length));
        assertFalse(PartialChecksum.mark(buffer, HEADER, FRAME, 20));
        assertEquals(0, OffloadHeader.flags(buffer, HEADER));
    }

    private int ipv4(final int protocol, final int transportLength, final boolean fragment) {
        buffer.setMemory(FRAME, 2048, (byte) 0);
        EthernetHeader.etherType(buffer, FRAME, EthernetHeader.ETHER_TYPE_IPV4);
        final int ip = FRAME + EthernetHeader.LENGTH;
        Ipv4Header.write(buffer, ip, 0, Ipv4Header.MIN_LENGTH + transportLength, 7, protocol, SOURCE, DESTINATION);
        if (fragment) {
            buffer.putShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, (short) 0x2000, ByteOrder.BIG_ENDIAN);
        }
        if (protocol == Ipv4Header.PROTOCOL_UDP) {
            UdpHeader.write(buffer, ip + Ipv4Header.MIN_LENGTH, 40_000, 666, transportLength);
        }
        fillPayload(ip + Ipv4Header.MIN_LENGTH + (protocol == Ipv4Header.PROTOCOL_UDP ? UdpHeader.LENGTH : 20),
            transportLength - (protocol == Ipv4Header.PROTOCOL_UDP ? UdpHeader.LENGTH : 20));
        return EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + transportLength;
    }

    private void fillPayload(final int from, final int bytes) {
        for (int i = 0; i < bytes; i++) {
            buffer.putByte(from + i, (byte) (i * 7 + 1));
        }
    }

    private static long pseudo4(final int protocol, final int transportLength) {
        return (SOURCE >>> 16) + (SOURCE & 0xFFFF) + (DESTINATION >>> 16) + (DESTINATION & 0xFFFF) + protocol + transportLength;
    }

    /** As Linux leaves it: the pseudo-header's sum in the checksum field. */
    private void partial(final int transport, final int field, final long pseudo) {
        buffer.putShort(transport + field, (short) fold(pseudo), ByteOrder.BIG_ENDIAN);
    }

    /** The receiver's check: pseudo-header plus the whole segment, checksum included. */
    private int receiverSum(final int transport, final int bytes, final long pseudo) {
        return fold(pseudo + sumOf(transport, bytes));
    }

    private long sumOf(final int from, final int bytes) {
        long sum = 0;
        for (int at = from; at < from + bytes; at += 2) {
            sum += at + 1 < from + bytes ? buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF : (buffer.getByte(at) & 0xFF) << 8;
        }
        return sum;
    }

    private static int fold(final long sum) {
        long folded = sum;
        while ((folded >>> 16) != 0) {
            folded = (folded & 0xFFFF) + (folded >>> 16);
        }
        return (int) folded;
    }
}
