package io.trimswitch.simulator;

import org.junit.jupiter.api.Test;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventQueueTest {
    @Test
    void theKeysHoldTheLongestRunTheSwitchModuleAllows() {
        assertEquals(io.trimswitch.switching.run.SwitchRun.LONGEST_RUN_PICOS, EventQueue.MAX_TIME);
    }

    @Test
    void eventsComeOutInTimeThenTypeThenArgumentOrderHoweverTheyWereScheduled() {
        final SplittableRandom random = new SplittableRandom(11);
        final EventQueue queue = new EventQueue();
        final PriorityQueue<long[]> reference = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
            : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
        long now = 0;
        for (int step = 0; step < 200_000; step++) {
            if (reference.isEmpty() || random.nextInt(100) < 55) {
                // mostly soon after now (as a header a few ns later), sometimes far ahead
                final long time = now + (random.nextInt(4) == 0 ? random.nextInt(1_000_000) : random.nextInt(6_000));
                final int type = random.nextInt(EventQueue.MAX_TYPE + 1);
                final int arg = random.nextInt(64);
                queue.schedule(time, type, arg);
                reference.add(new long[] {time, type, arg});
            } else {
                final long[] expected = reference.poll();
                assertEquals(expected[0], queue.nextTime(), "step " + step);
                final long key = queue.poll();
                assertEquals(expected[1], EventQueue.type(key), "step " + step);
                assertEquals(expected[2], EventQueue.arg(key), "step " + step);
                now = expected[0];
            }
            assertEquals(reference.size(), queue.size());
        }
        while (!reference.isEmpty()) {
            final long[] expected = reference.poll();
            assertEquals(expected[0], queue.nextTime());
            queue.poll();
        }
        assertTrue(queue.isEmpty());
    }

    @Test
    void replacingTheHeadIsTheSameAsTakingItAndSchedulingAnother() {
        final SplittableRandom random = new SplittableRandom(5);
        final EventQueue replaced = new EventQueue();
        final EventQueue twoSteps = new EventQueue();
        for (int i = 0; i < 100; i++) {
            final long time = random.nextInt(10_000);
            replaced.schedule(time, 1, i);
            twoSteps.schedule(time, 1, i);
        }
        for (int step = 0; step < 100_000; step++) {
            final long head = replaced.peek();
            assertEquals(twoSteps.poll(), head, "step " + step);
            final long later = EventQueue.time(head) + 1 + random.nextInt(20_000);
            final int arg = random.nextInt(64);
            replaced.replaceHead(later, 2, arg);
            twoSteps.schedule(later, 2, arg);
            assertEquals(twoSteps.size(), replaced.size());
        }
        while (!twoSteps.isEmpty()) {
            assertEquals(twoSteps.poll(), replaced.poll());
        }
        assertTrue(replaced.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> twoSteps.replaceHead(-1, 0, 0));
    }

    @Test
    void aTimeOutsideTheRepresentableRangeIsRefused() {
        final EventQueue queue = new EventQueue();
        assertThrows(IllegalArgumentException.class, () -> queue.schedule(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> queue.schedule(EventQueue.MAX_TIME + 1, 0, 0));
    }
}
