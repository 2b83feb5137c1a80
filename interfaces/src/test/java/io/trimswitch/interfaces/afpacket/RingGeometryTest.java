package io.trimswitch.interfaces.afpacket;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingGeometryTest {
    /** Where the kernel ends a frame of an IP packet of {@code mtu} bytes in a V2 slot with a virtio_net_hdr. */
    private static int frameEnd(final int mtu) {
        return 90 + mtu;
    }

    @Test
    void aStandardMtuTakesFourFifthsOfTheMemoryForAsManyFrames() {
        final RingGeometry ring = RingGeometry.forMtu(1500, 4096);
        assertEquals(1600, ring.slotBytes());
        assertEquals(5, ring.slotsPerBlock());
        assertEquals(8192, ring.blockBytes());
        assertEquals(820, ring.blocks());
        assertEquals(4100, ring.frames());
        assertEquals(6_717_440, ring.bytes(), "6.4 MiB, where 4096 slots of 2048 bytes took 8 MiB");
    }

    @Test
    void everyMtuAndPageSizeGetsAtLeastAsManySlotsInNoMoreMemoryThanFixedSlots() {
        for (final int page : new int[] {4096, 16384, 65536}) {
            for (int mtu = 68; mtu <= 9216; mtu += 47) {
                final RingGeometry ring = RingGeometry.forMtu(mtu, page);
                final String what = "MTU " + mtu + ", pages of " + page + ": " + ring;
                assertTrue(ring.frames() >= RingGeometry.FRAMES, what);
                assertTrue(ring.slotBytes() >= Math.min(RingGeometry.MAX_SLOT_BYTES, frameEnd(mtu)), "a frame of the MTU fits its slot: " + what);
                assertEquals(0, ring.slotBytes() % 16, what);
                assertEquals(0, ring.blockBytes() % page, what);
                assertEquals(1, Integer.bitCount(ring.blockBytes() / page), "the kernel allocates a power of two of pages: " + what);
                assertTrue(ring.slotsPerBlock() * ring.slotBytes() <= ring.blockBytes(), what);
                assertTrue(ring.bytes() <= (long) RingGeometry.MAX_SLOT_BYTES * RingGeometry.FRAMES, what);
            }
        }
    }

    @Test
    void aJumboMtuKeepsTheLongestSlotAndItsFramesGoThroughTheSocketsQueue() {
        final RingGeometry ring = RingGeometry.forMtu(9000, 4096);
        assertEquals(RingGeometry.MAX_SLOT_BYTES, ring.slotBytes());
        assertEquals(8 << 20, ring.bytes());
    }

    @Test
    void noMtuOrPageSizeThatCannotBeIsTaken() {
        assertThrows(IllegalArgumentException.class, () -> RingGeometry.forMtu(0, 4096));
        assertThrows(IllegalArgumentException.class, () -> RingGeometry.forMtu(-1, 4096));
        assertThrows(IllegalArgumentException.class, () -> RingGeometry.forMtu(1500, 0));
        assertThrows(IllegalArgumentException.class, () -> RingGeometry.forMtu(1500, 3000));
    }
}
