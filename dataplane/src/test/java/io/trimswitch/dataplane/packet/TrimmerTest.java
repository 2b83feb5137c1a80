package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrimmerTest {
    private static final TrimSettings SETTINGS = TrimSettings.defaults();
    private static final int IP = EthernetHeader.LENGTH;
    private static final int UDP = IP + Ipv4Header.MIN_LENGTH;
    private static final int NDP = UDP + UdpHeader.LENGTH;

    private static UnsafeBuffer dataFrame(final int length) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        WorkloadFrames.writeData(buffer, 0, length, 3, 17, 5, 42, 10, 666);
        for (int i = NDP + NdpHeader.LENGTH; i < length; i++) {
            buffer.putByte(i, (byte) i);
        }
        return buffer;
    }

    @Test
    void aTrimmedNdpDataPacketIs64BytesOnTheWireWithRewrittenLengthsDscpAndChoppedFlag() {
        final UnsafeBuffer frame = dataFrame(1500);
        final byte[] before = new byte[64];
        frame.getBytes(0, before);
        final int packetClass = PacketClass.classify(frame, 0, 1500, SETTINGS);

        final int length = Trimmer.trim(frame, 0, 1500, packetClass, SETTINGS);

        assertEquals(64, length);
        assertEquals(50, Ipv4Header.totalLength(frame, IP));
        assertEquals(30, UdpHeader.length(frame, UDP));
        assertEquals(0, UdpHeader.checksum(frame, UDP));
        assertEquals(11, Ipv4Header.dscp(frame, IP));
        assertTrue(Ipv4Header.checksumValid(frame, IP));
        assertEquals(NdpHeader.FLAG_DATA | NdpHeader.FLAG_CHOPPED, NdpHeader.flags(frame, NDP));
        assertEquals(42, NdpHeader.sequence(frame, NDP));
        // Addresses, ports and the bytes after the headers are untouched.
        final byte[] after = new byte[64];
        frame.getBytes(0, after);
        for (final int i : new int[] {0, 5, 6, 11, IP + 12, IP + 19, UDP, UDP + 3, NDP + 8, 63}) {
            assertEquals(before[i], after[i], "byte " + i);
        }
    }

    @Test
    void trimmingTwiceChangesNothingMore() {
        final UnsafeBuffer frame = dataFrame(1500);
        final int packetClass = PacketClass.classify(frame, 0, 1500, SETTINGS);
        final int once = Trimmer.trim(frame, 0, 1500, packetClass, SETTINGS);
        final byte[] first = new byte[once];
        frame.getBytes(0, first);

        final int twice = Trimmer.trim(frame, 0, once, packetClass, SETTINGS);

        final byte[] second = new byte[twice];
        frame.getBytes(0, second);
        assertArrayEquals(first, second);
    }

    @Test
    void aPacketShorterThanTheTrimSizeKeepsItsBytesButIsMarked() {
        final UnsafeBuffer frame = dataFrame(60);
        final int packetClass = PacketClass.classify(frame, 0, 60, SETTINGS);

        final int length = Trimmer.trim(frame, 0, 60, packetClass, SETTINGS);

        assertEquals(60, length);
        assertEquals(46, Ipv4Header.totalLength(frame, IP));
        assertEquals(11, Ipv4Header.dscp(frame, IP));
        assertTrue(Ipv4Header.checksumValid(frame, IP));
        assertTrue((NdpHeader.flags(frame, NDP) & NdpHeader.FLAG_CHOPPED) != 0);
    }

    @Test
    void aSonicStyle128ByteTrimKeepsPayloadUpTo128Bytes() {
        final TrimSettings sonic = new TrimSettings(128, 11, 1L << 10, 666);
        final UnsafeBuffer frame = dataFrame(1500);
        assertEquals(128, Trimmer.trim(frame, 0, 1500, PacketClass.classify(frame, 0, 1500, sonic), sonic));
        assertEquals(114, Ipv4Header.totalLength(frame, IP));
    }

    @Test
    void aTrimSizeBelowTheHeadersIsRefusedWithTheReason() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new TrimSettings(40, 11, 1L << 10, 666));
        assertTrue(error.getMessage().contains("below the 50 B"), error.getMessage());
    }

    @Test
    void aTrimmedDscpInsideTheTrimmableSetIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TrimSettings(64, 10, 1L << 10, 666));
    }

    @Test
    void trimmedFramesAlwaysCarryValidIpv4ChecksumsAndConsistentLengths() {
        final SplittableRandom random = new SplittableRandom(20261122);
        for (int trial = 0; trial < 2000; trial++) {
            assertTrimIsConsistent(random.nextInt(50, 2001), random.nextInt(50, 513), random.nextInt(65536));
        }
        assertTrimIsConsistent(50, 50, 0);
        assertTrimIsConsistent(2000, 512, 65535);
    }

    private static void assertTrimIsConsistent(final int length, final int size, final int sequence) {
        final String trial = "length " + length + ", size " + size + ", sequence " + sequence;
        final TrimSettings settings = new TrimSettings(size, 11, 1L << 10, 666);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[2048]);
        WorkloadFrames.writeData(frame, 0, length, 1, 2, 3, sequence, 10, 666);

        final int trimmed = Trimmer.trim(frame, 0, length, PacketClass.classify(frame, 0, length, settings), settings);

        assertEquals(Math.min(length, size), trimmed, trial);
        assertEquals(trimmed - EthernetHeader.LENGTH, Ipv4Header.totalLength(frame, IP), trial);
        assertEquals(trimmed - UDP, UdpHeader.length(frame, UDP), trial);
        assertTrue(Ipv4Header.checksumValid(frame, IP), trial);
        final int reparsed = PacketClass.classify(frame, 0, trimmed, settings);
        assertTrue(PacketClass.isPriority(reparsed), "a trimmed packet travels as a header: " + trial);
        assertTrue(!PacketClass.isTrimmable(reparsed), "a trimmed packet is never trimmed again: " + trial);
    }
}
