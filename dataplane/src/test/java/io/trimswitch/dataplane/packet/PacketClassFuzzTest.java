package io.trimswitch.dataplane.packet;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any bytes as a frame on a port: Ethernet, IPv4 with options, IPv6 with extension headers, UDP and the NDP shim. The
 * parser reads only inside the frame (its buffer ends where the frame does), and either names a reason to drop it or
 * says where its headers end; a frame whose IP header claims more bytes than arrived is never taken as whole; a trim
 * leaves a frame that parses again, with lengths and checksum that agree with what it kept.
 */
class PacketClassFuzzTest {
    /** The longest frame the switch takes. */
    private static final int LONGEST = PacketPool.SLOT_BYTES;
    private static final TrimSettings[] SETTINGS = {
        TrimSettings.defaults(),
        // Every DSCP but the trimmed one trimmable, and a larger trim size: most frames reach the trimmer.
        new TrimSettings(200, 11, ~(1L << 11), NdpHeader.DEFAULT_UDP_PORT),
    };

    @FuzzTest
    void everyFrameIsDroppedWithAReasonOrParsedWithinItsBytes(final byte[] input) {
        if (input.length == 0) {
            return;
        }
        final TrimSettings settings = SETTINGS[(input[0] & 0xFF) % SETTINGS.length];
        final byte[] frame = Arrays.copyOfRange(input, 1, input.length);
        check(frame, frame.length, settings);
        if ((input[0] & 0x80) != 0) {
            // The same headers with a zero tail up to the longest frame, so lengths may point far beyond the input.
            check(Arrays.copyOf(frame, LONGEST), LONGEST, settings);
        }
    }

    private static void check(final byte[] bytes, final int length, final TrimSettings settings) {
        // At an offset in a larger buffer, as in the pool, but the buffer ends with the frame.
        final int frame = 16;
        final byte[] backing = new byte[frame + length];
        System.arraycopy(bytes, 0, backing, frame, length);
        final UnsafeBuffer buffer = new UnsafeBuffer(backing);
        final int packetClass = PacketClass.classify(buffer, frame, length, settings);
        if (PacketClass.isMalformed(packetClass)) {
            assertNotNull(PacketClass.dropReason(packetClass));
            return;
        }
        final int headersEnd = PacketClass.headersEnd(packetClass);
        assertEquals(0, packetClass & 0xF000, "headers end beyond what the class word holds: " + Integer.toHexString(packetClass));
        assertTrue(headersEnd >= EthernetHeader.LENGTH && headersEnd <= length, "headers end at " + headersEnd + " of " + length);
        final boolean ipv4 = (packetClass & PacketClass.IPV4) != 0;
        final boolean ipv6 = (packetClass & PacketClass.IPV6) != 0;
        final int ip = frame + EthernetHeader.LENGTH;
        if (ipv4) {
            assertTrue(EthernetHeader.LENGTH + Ipv4Header.totalLength(buffer, ip) <= length, "a cut IPv4 packet taken as whole");
            assertTrue(Ipv4Header.checksumValid(buffer, ip), "an IPv4 header with a bad checksum taken");
        }
        if (ipv6) {
            assertTrue(EthernetHeader.LENGTH + Ipv6Header.LENGTH + Ipv6Header.payloadLength(buffer, ip) <= length, "a cut IPv6 packet taken as whole");
        }
        if ((packetClass & PacketClass.UDP) != 0) {
            assertTrue(ipv4 || ipv6, "UDP outside IP");
            assertTrue(PacketClass.udpOffset(frame, packetClass) >= ip + Ipv4Header.MIN_LENGTH, "UDP inside the IP header");
        }
        if (PacketClass.isTrimmable(packetClass)) {
            trimmed(buffer, frame, length, packetClass, settings);
        }
    }

    /** The trim keeps the headers, and what it leaves parses again as the same packet, with matching lengths. */
    private static void trimmed(final UnsafeBuffer buffer, final int frame, final int length, final int packetClass, final TrimSettings settings) {
        final int headersEnd = PacketClass.headersEnd(packetClass);
        final int ip = frame + EthernetHeader.LENGTH;
        final int ipLength = (packetClass & PacketClass.IPV4) != 0 ? Ipv4Header.totalLength(buffer, ip) : Ipv6Header.payloadLength(buffer, ip);
        final int newLength = Trimmer.trim(buffer, frame, length, packetClass, settings);
        assertTrue(newLength >= Math.min(length, Math.max(headersEnd, 0)) && newLength <= length, "trimmed to " + newLength + " of " + length);
        assertTrue(newLength >= headersEnd, "the trim cut into the headers: " + newLength + " < " + headersEnd);
        final UnsafeBuffer cut = new UnsafeBuffer(buffer.byteArray(), 0, frame + newLength);
        final int again = PacketClass.classify(cut, frame, newLength, settings);
        assertTrue(!PacketClass.isMalformed(again), "a trimmed frame no longer parses: 0x" + Integer.toHexString(again));
        assertEquals(packetClass & (PacketClass.IPV4 | PacketClass.IPV6 | PacketClass.UDP | PacketClass.NDP),
            again & (PacketClass.IPV4 | PacketClass.IPV6 | PacketClass.UDP | PacketClass.NDP), "the trim changed what the packet is");
        assertEquals(headersEnd, PacketClass.headersEnd(again), "the trimmed frame's headers end elsewhere");
        if ((packetClass & PacketClass.IPV4) != 0) {
            assertEquals(newLength, EthernetHeader.LENGTH + Ipv4Header.totalLength(cut, ip), "IPv4 total length after the trim");
            assertEquals(settings.trimmedDscp(), Ipv4Header.dscp(cut, ip));
        } else {
            assertEquals(newLength, EthernetHeader.LENGTH + Ipv6Header.LENGTH + Ipv6Header.payloadLength(cut, ip), "IPv6 payload length after the trim");
            assertEquals(settings.trimmedDscp(), Ipv6Header.dscp(cut, ip));
        }
        // Only a trim that shortened the IP packet rewrites the UDP length (cutting an Ethernet pad changes neither).
        final boolean shortened = ((packetClass & PacketClass.IPV4) != 0 ? Ipv4Header.totalLength(cut, ip) : Ipv6Header.payloadLength(cut, ip)) < ipLength;
        if ((packetClass & PacketClass.UDP) != 0 && shortened) {
            final int udp = PacketClass.udpOffset(frame, packetClass);
            assertEquals(frame + newLength - udp, UdpHeader.length(cut, udp), "UDP length after the trim");
        }
        if ((packetClass & PacketClass.NDP) != 0) {
            final int ndp = PacketClass.udpOffset(frame, packetClass) + UdpHeader.LENGTH;
            assertTrue((NdpHeader.flags(cut, ndp) & NdpHeader.FLAG_CHOPPED) != 0, "a trimmed NDP packet not marked CHOPPED");
        }
    }
}
