package io.trimswitch.trafficmanager;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PortCountersTest {
    @Test
    void aTransmissionTheLinkRefusedIsCountedOutOfWhatWasSentAndATrimmedOneAsADroppedTrimmedPacket() {
        final PortCounters counters = PortCounters.standalone(3);
        counters.transmitted(1500, false);
        counters.transmitted(64, true);
        counters.transmitted(1000, false);
        counters.transmissionRefused(64, true);
        counters.transmissionRefused(1000, false);
        assertEquals(1, counters.txPackets());
        assertEquals(1500, counters.txBytes());
        assertEquals(0, counters.txTrimPackets());
        assertEquals(1, counters.droppedTrimPackets());
    }
}
