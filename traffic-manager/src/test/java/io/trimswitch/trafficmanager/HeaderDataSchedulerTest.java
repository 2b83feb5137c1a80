package io.trimswitch.trafficmanager;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HeaderDataSchedulerTest {
    @Test
    void withBothWaitingItSendsTenHeadersThenOneDataPacketAndSoOn() {
        final HeaderDataScheduler scheduler = new HeaderDataScheduler(10);
        final StringBuilder order = new StringBuilder();
        for (int i = 0; i < 22; i++) {
            order.append(scheduler.choose(true, true) == HeaderDataScheduler.HEADER ? 'h' : 'd');
        }
        assertEquals("hhhhhhhhhhdhhhhhhhhhhd", order.toString());
    }

    @Test
    void headersAloneOrDataAloneGoOutBackToBackAndNothingWaitingSendsNothing() {
        final HeaderDataScheduler scheduler = new HeaderDataScheduler(10);
        for (int i = 0; i < 30; i++) {
            assertEquals(HeaderDataScheduler.HEADER, scheduler.choose(true, false));
        }
        assertEquals(HeaderDataScheduler.DATA, scheduler.choose(true, true), "after 30 headers the waiting data packet goes first");
        for (int i = 0; i < 5; i++) {
            assertEquals(HeaderDataScheduler.DATA, scheduler.choose(false, true));
        }
        assertEquals(HeaderDataScheduler.NOTHING, scheduler.choose(false, false));
    }

    @Test
    void zeroHeadersPerDataIsStrictPriority() {
        final HeaderDataScheduler scheduler = new HeaderDataScheduler(0);
        for (int i = 0; i < 100; i++) {
            assertEquals(HeaderDataScheduler.HEADER, scheduler.choose(true, true));
        }
        assertEquals(HeaderDataScheduler.DATA, scheduler.choose(false, true));
    }
}
