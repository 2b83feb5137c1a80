package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostDatagramTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);

    @Test
    void aDatagramSaysItsSessionFlowSequenceLengthAndPayload() {
        HostDatagram.write(buffer, NdpHeader.FLAG_DATA, 0xCAFE_F00D, 65_535, 200_001, 0, 3, 300_000, 1398);
        assertEquals(NdpHeader.FLAG_DATA, HostDatagram.flags(buffer));
        assertEquals(0xCAFE_F00D, HostDatagram.session(buffer));
        assertEquals(65_535, HostDatagram.flow(buffer));
        assertEquals(200_001, HostDatagram.sequence(buffer), "sequences past 16 bits: the shim has the low half, the tag the high");
        assertEquals(200_001 & 0xFFFF, NdpHeader.sequence(buffer, 0));
        assertEquals(300_000, HostDatagram.packets(buffer));
        assertEquals(1398, HostDatagram.payload(buffer));
        assertEquals(3, NdpHeader.path(buffer, 0));
    }

    @Test
    void theShimAndTagSurviveATrimTo64Bytes() {
        // Ethernet, IPv4 and UDP take 42 of the 64 bytes a trimmed frame keeps.
        assertEquals(64, HostDatagram.FRAME_OVERHEAD + HostDatagram.HEADER_LENGTH);
    }

    @Test
    void aDatagramIsAHeaderWhenTheSwitchMarkedItOrCutIt() {
        HostDatagram.write(buffer, NdpHeader.FLAG_DATA, 1, 0, 0, 0, 0, 10, 1398);
        assertFalse(HostDatagram.isHeader(buffer, HostDatagram.HEADER_LENGTH + 1398));
        assertTrue(HostDatagram.isHeader(buffer, HostDatagram.HEADER_LENGTH), "cut to its headers, unmarked (trimmable DSCP only)");
        NdpHeader.flags(buffer, 0, NdpHeader.FLAG_DATA | NdpHeader.FLAG_CHOPPED);
        assertTrue(HostDatagram.isHeader(buffer, HostDatagram.HEADER_LENGTH + 1398), "marked CHOPPED (the NDP port)");
    }
}
