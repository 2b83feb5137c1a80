package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandleRingTest {
    @Test
    void holdsExactlyItsCapacityInPacketsEvenWhenThatIsNoPowerOfTwo() {
        final HandleRing ring = new HandleRing(13, true);
        for (int handle = 0; handle < 13; handle++) {
            assertTrue(ring.offer(handle));
        }
        assertFalse(ring.offer(13), "the fourteenth packet does not fit");
        assertEquals(13, ring.size());
        assertEquals(13, ring.maxDepth());
        assertEquals(1, ring.rejected());
        assertEquals(0, ring.peek());
        assertEquals(0, ring.poll());
        assertTrue(ring.offer(13), "one out, one in");
        assertEquals(14, ring.enqueued());
    }

    @Test
    void handsHandlesOutInOrderOneAtATimeOrInBatches() {
        final HandleRing ring = new HandleRing(8, false);
        for (int handle = 100; handle < 106; handle++) {
            ring.offer(handle);
        }
        assertEquals(100, ring.poll());
        final List<Integer> drained = new ArrayList<>();
        assertEquals(3, ring.drain(drained::add, 3));
        assertEquals(List.of(101, 102, 103), drained);
        assertEquals(2, ring.size());
        assertEquals(104, ring.poll());
        assertEquals(105, ring.poll());
        assertEquals(PacketPool.NO_PACKET, ring.poll());
        assertTrue(ring.isEmpty());
    }

    @Test
    void wrapsAroundManyTimesWithoutLosingOrReorderingAPacket() {
        final HandleRing ring = new HandleRing(5, false);
        int next = 0;
        for (int round = 0; round < 10_000; round++) {
            assertTrue(ring.offer(round));
            if (ring.size() == 5 || round == 9_999) {
                while (!ring.isEmpty()) {
                    assertEquals(next++, ring.poll());
                }
            }
        }
        assertEquals(10_000, next);
    }

    @Test
    void aRingWhoseCapacityIsAPowerOfTwoTakesItsFullCapacityWhereverItsHeadIs() {
        for (final boolean manyProducers : new boolean[] {false, true}) {
            final HandleRing ring = new HandleRing(32, manyProducers);
            final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
            int expectedNext = 0;
            int nextHandle = 0;
            for (int step = 0; step < 200_000; step++) {
                if (random.nextInt(10) < 7) {
                    final boolean room = ring.size() < 32;
                    assertEquals(room, ring.offer(nextHandle), "offer at size " + ring.size());
                    if (room) {
                        nextHandle++;
                    }
                } else {
                    final int[] seen = {expectedNext};
                    ring.drain(handle -> assertEquals(seen[0]++, handle), 1 + random.nextInt(32));
                    expectedNext = seen[0];
                }
            }
        }
    }

    @Test
    void producersOnSeveralThreadsNeverOverfillItAndLoseNothing() throws InterruptedException {
        final int producers = 3;
        final int perProducer = 200_000;
        final HandleRing ring = new HandleRing(16, true);
        final CountDownLatch start = new CountDownLatch(1);
        final long[] rejectedBy = new long[producers];
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            final Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (final InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    while (!ring.offer(producer * perProducer + i)) {
                        rejectedBy[producer]++;
                        Thread.onSpinWait();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        final int[] lastSeen = new int[producers];
        java.util.Arrays.fill(lastSeen, -1);
        long received = 0;
        start.countDown();
        while (received < (long) producers * perProducer) {
            assertTrue(ring.size() <= 16, "occupancy never exceeds the capacity");
            final int handle = ring.poll();
            if (handle == PacketPool.NO_PACKET) {
                Thread.onSpinWait();
                continue;
            }
            final int producer = handle / perProducer;
            assertTrue(handle % perProducer > lastSeen[producer], "each producer's packets stay in order");
            lastSeen[producer] = handle % perProducer;
            received++;
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        assertArrayEquals(new int[] {perProducer - 1, perProducer - 1, perProducer - 1}, lastSeen);
        assertTrue(ring.maxDepth() <= 16);
        long rejected = 0;
        for (final long count : rejectedBy) {
            rejected += count;
        }
        assertEquals(rejected, ring.rejected());
        assertEquals((long) producers * perProducer, ring.enqueued());
    }

    @Test
    void refusesSomethingThatIsNoHandleInsteadOfLosingIt() {
        final HandleRing ring = new HandleRing(4, true);
        final IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> ring.offer(PacketPool.NO_PACKET));
        assertEquals("not a packet handle: -1", refused.getMessage());
        assertTrue(ring.isEmpty());
    }

    @Test
    void handleZeroIsAPacketLikeAnyOther() {
        final HandleRing ring = new HandleRing(2, false);
        assertTrue(ring.offer(0));
        assertEquals(0, ring.peek());
        assertEquals(0, ring.poll());
        assertEquals(PacketPool.NO_PACKET, ring.peek());
    }
}
