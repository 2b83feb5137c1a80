package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketClassTest {
    private static final TrimSettings SETTINGS = TrimSettings.defaults();
    private static final int IP = EthernetHeader.LENGTH;
    private static final int UDP = IP + Ipv4Header.MIN_LENGTH;

    private static UnsafeBuffer frame(final int length, final int dscp, final int udpPort) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        WorkloadFrames.writeData(buffer, 0, length, 1, 2, 0, 7, dscp, 666);
        UdpHeader.destinationPort(buffer, UDP, udpPort);
        return buffer;
    }

    @Test
    void anNdpDataPacketIsTrimmableWhateverItsDscp() {
        final int packetClass = PacketClass.classify(frame(1500, 0, 666), 0, 1500, SETTINGS);
        assertTrue(PacketClass.isTrimmable(packetClass));
        assertEquals(TrimSettings.NDP_HEADERS, PacketClass.headersEnd(packetClass));
    }

    @Test
    void ndpControlPacketsAreNeverTrimmableAndTravelAsHeaders() {
        for (final int flag : new int[] {NdpHeader.FLAG_ACK, NdpHeader.FLAG_NACK, NdpHeader.FLAG_PULL}) {
            final UnsafeBuffer buffer = frame(64, 10, 666);
            NdpHeader.flags(buffer, UDP + UdpHeader.LENGTH, flag);
            final int packetClass = PacketClass.classify(buffer, 0, 64, SETTINGS);
            assertFalse(PacketClass.isTrimmable(packetClass), "flag " + flag);
            assertTrue(PacketClass.isPriority(packetClass), "flag " + flag);
        }
    }

    @Test
    void aControlOrChoppedPacketLongerThanAnyHeaderTheSwitchMakesTravelsAsDataAndIsMarkedOversize() {
        for (final int flag : new int[] {NdpHeader.FLAG_ACK, NdpHeader.FLAG_NACK, NdpHeader.FLAG_PULL, NdpHeader.FLAG_CHOPPED | NdpHeader.FLAG_DATA}) {
            final UnsafeBuffer header = frame(64, 0, 666);
            NdpHeader.flags(header, UDP + UdpHeader.LENGTH, flag);
            final int atTheTrimSize = PacketClass.classify(header, 0, 64, SETTINGS);
            assertTrue(PacketClass.isPriority(atTheTrimSize) && !PacketClass.isOversizeControl(atTheTrimSize), "flag " + flag + " at 64 B");

            for (final int length : new int[] {65, 1300}) {
                final UnsafeBuffer packet = frame(length, 0, 666);
                NdpHeader.flags(packet, UDP + UdpHeader.LENGTH, flag);
                final int packetClass = PacketClass.classify(packet, 0, length, SETTINGS);
                assertFalse(PacketClass.isPriority(packetClass), "flag " + flag + " at " + length + " B is not a header");
                assertFalse(PacketClass.isControl(packetClass), "flag " + flag + " at " + length + " B");
                assertTrue(PacketClass.isOversizeControl(packetClass), "flag " + flag + " at " + length + " B is counted");
                assertTrue(PacketClass.isTrimmable(packetClass), "an NDP packet, trimmable as NDP data is: flag " + flag);
                assertEquals(TrimSettings.NDP_HEADERS, PacketClass.headersEnd(packetClass));
            }
        }
    }

    @Test
    void aPacketWithTheTrimmedDscpLongerThanAHeaderIsPlainDataNotTrimmable() {
        final int trimmedDscp = SETTINGS.trimmedDscp();
        final int header = PacketClass.classify(frame(64, trimmedDscp, 5000), 0, 64, SETTINGS);
        assertTrue(PacketClass.isPriority(header) && !PacketClass.isOversizeControl(header));
        final int whole = PacketClass.classify(frame(1300, trimmedDscp, 5000), 0, 1300, SETTINGS);
        assertFalse(PacketClass.isPriority(whole), "1300 B marked as trimmed is data");
        assertTrue(PacketClass.isOversizeControl(whole));
        assertFalse(PacketClass.isTrimmable(whole), "its DSCP is not a trimmable one");
        final int plain = PacketClass.classify(frame(1300, 0, 5000), 0, 1300, SETTINGS);
        assertFalse(PacketClass.isOversizeControl(plain), "plain data is not counted");
    }

    @Test
    void aPacketNoLongerThanTheTrimSizeIsNeverTrimmable() {
        for (final int udpPort : new int[] {666, 5000}) {
            assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(64, 10, udpPort), 0, 64, SETTINGS)), "port " + udpPort);
            assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(65, 10, udpPort), 0, 65, SETTINGS)), "port " + udpPort);
        }
    }

    @Test
    void aPacketsDataQueueComesFromItsDscpThroughItsTrafficClass() {
        final byte[] queueOfDscp = new byte[64];
        queueOfDscp[10] = 1;
        queueOfDscp[46] = 2;
        final TrimSettings classes = new TrimSettings(64, 11, 1L << 10, 666, queueOfDscp, 0b010);
        assertEquals(1, PacketClass.queue(PacketClass.classify(frame(1500, 10, 666), 0, 1500, classes)));
        assertEquals(2, PacketClass.queue(PacketClass.classify(frame(1500, 46, 5000), 0, 1500, classes)));
        assertEquals(0, PacketClass.queue(PacketClass.classify(frame(1500, 0, 5000), 0, 1500, classes)));
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(1500, 46, 666), 0, 1500, classes)),
            "an NDP packet in a queue that drops is not trimmable");
    }

    @Test
    void plainUdpIsTrimmableOnlyWithATrimmableDscp() {
        assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(1500, 10, 5000), 0, 1500, SETTINGS)));
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(1500, 0, 5000), 0, 1500, SETTINGS)));
        assertTrue(PacketClass.isPriority(PacketClass.classify(frame(64, 11, 5000), 0, 64, SETTINGS)), "the trimmed DSCP on a header");
        assertFalse(PacketClass.isPriority(PacketClass.classify(frame(1500, 11, 5000), 0, 1500, SETTINGS)), "but not on a whole packet");
    }

    @Test
    void nonIpv4FramesAreForwardedButNeverTrimmable() {
        final UnsafeBuffer buffer = frame(60, 10, 666);
        EthernetHeader.etherType(buffer, 0, EthernetHeader.ETHER_TYPE_ARP);
        final int packetClass = PacketClass.classify(buffer, 0, 60, SETTINGS);
        assertFalse(PacketClass.isMalformed(packetClass));
        assertFalse(PacketClass.isTrimmable(packetClass));
    }

    @Test
    void framesWhoseHeadersLieAreMalformedAndSayWhy() {
        assertMalformed(DropReason.TRUNCATED, frame(1500, 10, 666), 10, "shorter than Ethernet");
        assertMalformed(DropReason.TRUNCATED, frame(1500, 10, 666), 30, "truncated IPv4");
        assertMalformed(DropReason.TRUNCATED, frame(1500, 10, 666), 1000, "total length beyond the frame");
        final UnsafeBuffer badChecksum = frame(1500, 10, 666);
        badChecksum.putByte(IP + Ipv4Header.TTL_FIELD_OFFSET, (byte) 3);
        assertMalformed(DropReason.BAD_IPV4_CHECKSUM, badChecksum, 1500, "bad checksum");
        final UnsafeBuffer badVersion = frame(1500, 10, 666);
        badVersion.putByte(IP, (byte) 0x65);
        assertMalformed(DropReason.BAD_IPV4_HEADER, badVersion, 1500, "IPv6 under an IPv4 ethertype");
        final UnsafeBuffer shortHeader = frame(1500, 10, 666);
        shortHeader.putByte(IP, (byte) 0x44);
        assertMalformed(DropReason.BAD_IPV4_HEADER, shortHeader, 1500, "IHL below five words");
        final UnsafeBuffer totalBelowHeader = frame(1500, 10, 666);
        Ipv4Header.totalLength(totalBelowHeader, IP, 12);
        assertMalformed(DropReason.BAD_IPV4_HEADER, totalBelowHeader, 1500, "total length below the header");
        assertThrows(IllegalArgumentException.class, () -> PacketClass.dropReason(PacketClass.classify(frame(1500, 10, 666), 0, 1500, SETTINGS)));
    }

    private static void assertMalformed(final DropReason expected, final UnsafeBuffer frame, final int length, final String what) {
        final int packetClass = PacketClass.classify(frame, 0, length, SETTINGS);
        assertTrue(PacketClass.isMalformed(packetClass), what);
        assertEquals(expected, PacketClass.dropReason(packetClass), what);
    }

    @Test
    void arbitraryBytesNeverThrowAndAreEitherMalformedOrHaveHeadersInsideTheFrame() {
        final SplittableRandom random = new SplittableRandom(7);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        for (int trial = 0; trial < 20_000; trial++) {
            final int length = random.nextInt(129);
            for (int i = 0; i < length; i++) {
                buffer.putByte(i, (byte) random.nextInt(256));
            }
            if (length >= 15 && random.nextBoolean()) {
                EthernetHeader.etherType(buffer, 0, EthernetHeader.ETHER_TYPE_IPV4);
                buffer.putByte(14, (byte) (0x45 + random.nextInt(3)));
            }
            final int packetClass = PacketClass.classify(buffer, 0, length, SETTINGS);
            assertTrue(PacketClass.isMalformed(packetClass) || PacketClass.headersEnd(packetClass) <= length,
                "trial " + trial + " length " + length);
        }
    }
}
