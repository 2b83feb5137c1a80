package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UltraEthernetMarksTest {
    private static final int IP = EthernetHeader.LENGTH;
    /** TRIMMED_LASTHOP 11 towards hosts, TRIMMED 12 towards the fabric ports 4 and 70, NO_TRIM 13. */
    private static final TrimSettings UEC = TrimSettings.defaults().with(12, new long[] {1L << 4, 1L << (70 - 64)}, 1L << 13, new TrimOptOut[0]);

    private static UnsafeBuffer frame(final int dscp, final int udpPort, final int sourcePort) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        WorkloadFrames.writeData(buffer, 0, 1500, sourcePort, 4, 0, 1, dscp, udpPort);
        return buffer;
    }

    @Test
    void aPacketTrimmedTowardsTheFabricIsMarkedTrimmedAndTowardsAHostTrimmedLastHop() {
        for (final int[] egress : new int[][] {{4, 12}, {70, 12}, {3, 11}, {-1, 11}}) {
            final UnsafeBuffer buffer = frame(10, 666, 1);
            Trimmer.trim(buffer, 0, 1500, PacketClass.classify(buffer, 0, 1500, UEC), UEC, egress[0]);
            assertEquals(egress[1], Ipv4Header.dscp(buffer, IP), "towards port " + egress[0]);
        }
    }

    @Test
    void bothTrimmedMarksTravelAsHeadersAtTheNextSwitch() {
        for (final int mark : new int[] {11, 12}) {
            final UnsafeBuffer header = new UnsafeBuffer(new byte[2048]);
            WorkloadFrames.writeData(header, 0, UEC.sizeBytes(), 1, 4, 0, 1, mark, 5000);
            assertTrue(PacketClass.isPriority(PacketClass.classify(header, 0, UEC.sizeBytes(), UEC)), "a header marked " + mark);
            // Marked, but longer than any header the switch makes: it travels as data and is counted (oversizeControl).
            final int whole = PacketClass.classify(frame(mark, 5000, 1), 0, 1500, UEC);
            assertFalse(PacketClass.isPriority(whole), "a 1500-byte packet marked " + mark);
            assertTrue(PacketClass.isOversizeControl(whole), "a 1500-byte packet marked " + mark);
        }
    }

    @Test
    void aNoTrimPacketIsNeverTrimmableEvenAsNdpData() {
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(13, 666, 1), 0, 1500, UEC)));
        assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(10, 666, 1), 0, 1500, UEC)));
    }

    @Test
    void aFlowThatOptsOutIsNeverTrimmableAndOthersStillAre() {
        final TrimOptOut fromPort2 = new TrimOptOut(0x0A00_0200, 24, 0, -1, 17, -1, -1, -1);
        final TrimOptOut toPort7000 = new TrimOptOut(0, -1, 0, -1, -1, 7000, 7010, 10);
        final TrimSettings settings = TrimSettings.defaults().with(11, new long[0], 0, new TrimOptOut[] {fromPort2, toPort7000});
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(10, 666, 2), 0, 1500, settings)), "from 10.0.2.0/24 over UDP");
        assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(10, 666, 3), 0, 1500, settings)));
        assertFalse(PacketClass.isTrimmable(PacketClass.classify(frame(10, 7005, 3), 0, 1500, settings)), "to ports 7000-7010 with DSCP 10");
        assertTrue(PacketClass.isTrimmable(PacketClass.classify(frame(10, 7011, 3), 0, 1500, settings)));
    }
}
