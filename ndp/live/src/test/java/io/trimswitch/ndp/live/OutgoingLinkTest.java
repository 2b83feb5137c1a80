package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.ndp.NdpFrames;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutgoingLinkTest {
    @Test
    void framesLeaveOneSerialisationTimeApartAtTheLinksRate() {
        // 1250 bytes at 1 Gb/s: 10 us each.
        final OutgoingLink link = new OutgoingLink(LinkRate.gbps(1), 1250, 125);
        assertEquals(10_000, link.dataNanos());
        for (int sequence = 0; sequence < 3; sequence++) {
            link.add(NdpFrames.DATA, 0, sequence, 0, 0, true);
        }
        assertEquals(0, link.nextDue());
        link.removeHead();
        assertFalse(link.ready(9_999));
        assertTrue(link.ready(10_000));
        link.removeHead();
        assertEquals(20_000, link.nextDue());
        assertEquals(2, link.headSequence());
    }

    @Test
    void aLinkHoldsAsManyFramesAsItIsGiven() {
        final OutgoingLink link = new OutgoingLink(LinkRate.gbps(100), 1500, 64);
        for (int sequence = 0; sequence < 1000; sequence++) {
            link.add(NdpFrames.ACK, 1, sequence, 0, 0, false);
        }
        for (int sequence = 0; sequence < 1000; sequence++) {
            assertEquals(sequence, link.headSequence());
            link.removeHead();
        }
        assertEquals(Long.MAX_VALUE, link.nextDue());
    }
}
