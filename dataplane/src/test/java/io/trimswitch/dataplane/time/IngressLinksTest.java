package io.trimswitch.dataplane.time;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IngressLinksTest {
    private final IngressLinks links = new IngressLinks(new LinkRate[] {LinkRate.gbps(100), LinkRate.gbps(1)});

    @Test
    void framesReadAtOnceArriveOneSerialisationTimeApart() {
        // 1500 B take 120 ns at 100 Gb/s: a burst read at time 0 arrives as the link would have delivered it.
        assertEquals(0, links.arrival(0, 1500, 0) - 0, "the first frame arrives when it is read");
        assertEquals(120_000, links.arrival(0, 1500, 0));
        assertEquals(240_000, links.arrival(0, 1500, 0));
        assertEquals(245_120, links.arrival(0, 64, 0), "a 64 B frame takes 5.12 ns");
    }

    @Test
    void aFrameReadAfterTheLinkWentIdleArrivesWhenItIsRead() {
        links.arrival(0, 1500, 0);
        assertEquals(1_000_000, links.arrival(0, 1500, 1_000_000));
    }

    @Test
    void eachPortHasALinkOfItsOwnRate() {
        links.arrival(0, 1500, 0);
        assertEquals(0, links.arrival(1, 1500, 0), "port 1's link is idle whatever port 0 received");
        assertEquals(12_000_000, links.arrival(1, 1500, 0), "1500 B take 12 µs at 1 Gb/s");
    }
}
