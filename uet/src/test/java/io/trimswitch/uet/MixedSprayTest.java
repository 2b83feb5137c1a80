package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class MixedSprayTest {
    @Test
    void recyclesEveryUnmarkedEntropyOnceOldestFirst() {
        final MixedSpray mixed = new MixedSpray(64, 1);
        mixed.feedback(5, EntropyChoice.GOOD, 0);
        mixed.feedback(9, EntropyChoice.ECN, 0);
        mixed.feedback(7, EntropyChoice.GOOD, 0);
        mixed.feedback(5, EntropyChoice.GOOD, 0);
        mixed.feedback(3, EntropyChoice.NACK, 0);
        assertEquals(3, mixed.queued(), "marked and NACKed entropies are not recycled");
        assertEquals(5, mixed.next(0));
        assertEquals(7, mixed.next(0));
        assertEquals(5, mixed.next(0));
        assertEquals(0, mixed.queued());
    }

    @Test
    void withNothingToRecycleTheBitmapSkipsWhatWasPenalised() {
        final MixedSpray mixed = new MixedSpray(8, 1);
        final BitmapSpray alone = new BitmapSpray(8, 1);
        mixed.feedback(2, EntropyChoice.NACK, 0);
        alone.feedback(2, EntropyChoice.NACK, 0);
        for (int i = 0; i < 32; i++) {
            final int entropy = mixed.next(0);
            assertEquals(alone.next(0), entropy, "send " + i);
            if (i < 7) {
                assertNotEquals(2, entropy, "the NACKed entropy is skipped in the first round");
            }
        }
    }

    @Test
    void holdsMoreThanItsFirstRingWithoutLosingOrder() {
        final MixedSpray mixed = new MixedSpray(1024, 1);
        for (int entropy = 0; entropy < 40; entropy++) {
            mixed.feedback(1000 + entropy, EntropyChoice.GOOD, 0);
        }
        for (int entropy = 0; entropy < 30; entropy++) {
            assertEquals(1000 + entropy, mixed.next(0));
        }
        for (int entropy = 0; entropy < 300; entropy++) {
            mixed.feedback(entropy, EntropyChoice.GOOD, 0);
        }
        assertEquals(310, mixed.queued());
        for (int entropy = 30; entropy < 40; entropy++) {
            assertEquals(1000 + entropy, mixed.next(0));
        }
        for (int entropy = 0; entropy < 300; entropy++) {
            assertEquals(entropy, mixed.next(0));
        }
        mixed.reset();
        assertEquals(0, mixed.queued());
    }
}
