package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv6TrimTest {
    private static final TrimSettings SETTINGS = TrimSettings.defaults();
    private static final int IP = EthernetHeader.LENGTH;
    private static final byte[] SOURCE = {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1};
    private static final byte[] DESTINATION = {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 1};

    /** An IPv6/UDP frame of {@code length} bytes to {@code udpPort}, behind {@code extension} (an extension header type, or -1 for none). */
    private static UnsafeBuffer frame(final int length, final int dscp, final int udpPort, final int extension) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        EthernetHeader.etherType(buffer, 0, EthernetHeader.ETHER_TYPE_IPV6);
        final int payload = length - IP - Ipv6Header.LENGTH;
        int udp = IP + Ipv6Header.LENGTH;
        Ipv6Header.write(buffer, IP, dscp, payload, extension < 0 ? 17 : extension, 64, SOURCE, DESTINATION);
        if (extension >= 0) {
            buffer.putByte(udp, (byte) 17);
            buffer.putByte(udp + 1, (byte) 0);
            udp += 8;
        }
        UdpHeader.write(buffer, udp, 49153, udpPort, IP + Ipv6Header.LENGTH + payload - udp);
        NdpHeader.flags(buffer, udp + UdpHeader.LENGTH, NdpHeader.FLAG_DATA);
        for (int i = udp + UdpHeader.LENGTH + NdpHeader.LENGTH; i < length; i++) {
            buffer.putByte(i, (byte) i);
        }
        UdpHeader.checksum(buffer, udp, Ipv6Header.udpChecksum(buffer, IP, udp, IP + Ipv6Header.LENGTH + payload - udp));
        return buffer;
    }

    @Test
    void anIpv6NdpDataPacketIsTrimmableAndItsHeadersEndBehindTheShim() {
        final int packetClass = PacketClass.classify(frame(1500, 10, 666, -1), 0, 1500, SETTINGS);
        assertTrue(PacketClass.isTrimmable(packetClass));
        assertTrue((packetClass & PacketClass.IPV6) != 0 && (packetClass & PacketClass.IPV4) == 0);
        assertEquals(14 + 40 + 8 + NdpHeader.LENGTH, PacketClass.headersEnd(packetClass));
    }

    @Test
    void behindExtensionHeadersAControlPacketMayBeAsLongAsWhatTheTrimmerKeepsAndNoLonger() {
        // 14 + 40 + 8 (hop-by-hop) + 8 + 8: past the 64-byte trim size, which a trim of this packet would keep whole.
        final int headersEnd = 14 + 40 + 8 + 8 + NdpHeader.LENGTH;
        final UnsafeBuffer trimmed = frame(1500, 10, 666, Ipv6Header.HOP_BY_HOP);
        final int keeps = Trimmer.trim(trimmed, 0, 1500, PacketClass.classify(trimmed, 0, 1500, SETTINGS), SETTINGS);
        assertEquals(headersEnd, keeps);
        for (final int length : new int[] {headersEnd, headersEnd + 1}) {
            final UnsafeBuffer packet = frame(length, 10, 666, Ipv6Header.HOP_BY_HOP);
            NdpHeader.flags(packet, IP + Ipv6Header.LENGTH + 8 + UdpHeader.LENGTH, NdpHeader.FLAG_PULL);
            final int packetClass = PacketClass.classify(packet, 0, length, SETTINGS);
            assertEquals(length == headersEnd, PacketClass.isControl(packetClass) && PacketClass.isPriority(packetClass), length + " B");
            assertEquals(length > headersEnd, PacketClass.isOversizeControl(packetClass), length + " B");
        }
    }

    @Test
    void commonExtensionHeadersAreSteppedOverAndOthersMakeThePacketUntrimmable() {
        for (final int skipped : new int[] {Ipv6Header.HOP_BY_HOP, Ipv6Header.ROUTING, Ipv6Header.DESTINATION_OPTIONS}) {
            final int packetClass = PacketClass.classify(frame(1500, 10, 666, skipped), 0, 1500, SETTINGS);
            assertTrue(PacketClass.isTrimmable(packetClass), "behind header " + skipped);
            assertEquals(14 + 40 + 8 + 8 + NdpHeader.LENGTH, PacketClass.headersEnd(packetClass));
        }
        final int behindAuthentication = PacketClass.classify(frame(1500, 10, 666, 51), 0, 1500, SETTINGS);
        assertFalse(PacketClass.isMalformed(behindAuthentication));
        assertFalse(PacketClass.isTrimmable(behindAuthentication), "where the headers end behind AH is unknown");
        assertTrue(PacketClass.isOpaque(behindAuthentication), "and it is counted as untrimmable");
        assertFalse(PacketClass.isOpaque(PacketClass.classify(frame(1500, 10, 666, Ipv6Header.ROUTING), 0, 1500, SETTINGS)));
    }

    @Test
    void aLaterFragmentBehindAnotherExtensionKeepsItsFragmentHeaderWhenTrimmed() {
        // Hop-by-hop (8 B), then a fragment header at a non-zero offset: the headers a trim keeps end after it.
        final UnsafeBuffer buffer = frame(1500, 10, 666, Ipv6Header.HOP_BY_HOP);
        final int fragment = IP + Ipv6Header.LENGTH + 8;
        buffer.putByte(IP + Ipv6Header.LENGTH, (byte) Ipv6Header.FRAGMENT);
        buffer.putByte(fragment, (byte) 17);
        buffer.putShort(fragment + 2, (short) (185 << 3), java.nio.ByteOrder.BIG_ENDIAN);
        final int packetClass = PacketClass.classify(buffer, 0, 1500, SETTINGS);
        assertTrue(PacketClass.isTrimmable(packetClass));
        assertEquals(fragment + Ipv6Header.FRAGMENT_LENGTH, PacketClass.headersEnd(packetClass));
        final int trimmed = Trimmer.trim(buffer, 0, 1500, packetClass, SETTINGS);
        assertEquals(fragment + Ipv6Header.FRAGMENT_LENGTH, trimmed, "the trim keeps the fragment header whole");
        assertFalse(PacketClass.isMalformed(PacketClass.classify(new UnsafeBuffer(buffer.byteArray(), 0, trimmed), 0, trimmed, SETTINGS)));
    }

    @Test
    void plainIpv6UdpIsTrimmableByItsDscpAndGoesToItsTrafficClassesQueue() {
        assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(1500, 10, 5000, -1), 0, 1500, SETTINGS)));
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(1500, 0, 5000, -1), 0, 1500, SETTINGS)));
        assertTrue(PacketClass.isPriority(PacketClass.classify(frame(64, 11, 5000, -1), 0, 64, SETTINGS)), "the trimmed DSCP on a header");
        assertFalse(PacketClass.isPriority(PacketClass.classify(frame(1500, 11, 5000, -1), 0, 1500, SETTINGS)), "but not on a whole packet");
        final byte[] queues = new byte[64];
        queues[10] = 3;
        final TrimSettings classes = new TrimSettings(64, 11, 1L << 10, 666, queues, 0b1000);
        assertEquals(3, PacketClass.queue(PacketClass.classify(frame(1500, 10, 5000, -1), 0, 1500, classes)));
    }

    @Test
    void brokenIpv6HeadersAreDroppedByCause() {
        final UnsafeBuffer wrongVersion = frame(200, 10, 666, -1);
        wrongVersion.putByte(IP, (byte) 0x45);
        assertEquals(DropReason.BAD_IPV6_HEADER, PacketClass.dropReason(PacketClass.classify(wrongVersion, 0, 200, SETTINGS)));
        assertEquals(DropReason.TRUNCATED, PacketClass.dropReason(PacketClass.classify(frame(200, 10, 666, -1), 0, 150, SETTINGS)));
        assertEquals(DropReason.TRUNCATED, PacketClass.dropReason(PacketClass.classify(frame(200, 10, 666, -1), 0, 50, SETTINGS)));
        final UnsafeBuffer longExtension = frame(200, 10, 666, Ipv6Header.HOP_BY_HOP);
        longExtension.putByte(IP + Ipv6Header.LENGTH + 1, (byte) 100);
        assertEquals(DropReason.BAD_IPV6_HEADER, PacketClass.dropReason(PacketClass.classify(longExtension, 0, 200, SETTINGS)));
    }

    @Test
    void aTrimmedIpv6PacketKeepsItsHeadersWithLengthsTrimmedDscpChoppedFlagAndAValidUdpChecksum() {
        final UnsafeBuffer buffer = frame(1500, 10, 666, -1);
        buffer.putByte(IP + 1, (byte) (buffer.getByte(IP + 1) | 0x10));
        final int packetClass = PacketClass.classify(buffer, 0, 1500, SETTINGS);
        final int length = Trimmer.trim(buffer, 0, 1500, packetClass, SETTINGS);
        assertEquals(70, length, "the headers, more than the 64-byte trim size");
        assertEquals(16, Ipv6Header.payloadLength(buffer, IP));
        assertEquals(11, Ipv6Header.dscp(buffer, IP));
        assertEquals(1, Ipv6Header.trafficClass(buffer, IP) & 0x3, "the ECN bits are kept");
        assertEquals(6, Ipv6Header.version(buffer, IP));
        final int udp = IP + Ipv6Header.LENGTH;
        assertEquals(16, UdpHeader.length(buffer, udp));
        assertTrue((NdpHeader.flags(buffer, udp + UdpHeader.LENGTH) & NdpHeader.FLAG_CHOPPED) != 0);
        assertEquals(Ipv6Header.udpChecksum(buffer, IP, udp, 16), UdpHeader.checksum(buffer, udp));
        assertTrue(PacketClass.isPriority(PacketClass.classify(buffer, 0, length, SETTINGS)), "a trimmed header is a header at the next switch");
    }

    @Test
    void returnedToItsSenderAnIpv6HeaderSwapsAddressesAndPortsAndKeepsItsChecksum() {
        final UnsafeBuffer buffer = frame(1500, 10, 666, -1);
        final int packetClass = PacketClass.classify(buffer, 0, 1500, SETTINGS);
        final int length = Trimmer.trim(buffer, 0, 1500, packetClass, SETTINGS);
        final int checksum = UdpHeader.checksum(buffer, IP + Ipv6Header.LENGTH);
        ReturnToSender.swapAddresses(buffer, 0, packetClass);
        assertEquals(4, buffer.getByte(IP + Ipv6Header.SOURCE_FIELD_OFFSET + 13));
        assertEquals(1, buffer.getByte(IP + Ipv6Header.DESTINATION_FIELD_OFFSET + 13));
        assertEquals(666, UdpHeader.sourcePort(buffer, IP + Ipv6Header.LENGTH));
        assertEquals(checksum, Ipv6Header.udpChecksum(buffer, IP, IP + Ipv6Header.LENGTH, length - IP - Ipv6Header.LENGTH));
    }
}
