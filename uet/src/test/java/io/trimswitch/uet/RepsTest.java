package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RepsTest {
    @Test
    void reusesTheEntropiesThatCameBackGoodOldestFirst() {
        final Reps reps = new Reps(64, 1);
        reps.feedback(5, EntropyChoice.GOOD, 0);
        reps.feedback(9, EntropyChoice.ECN, 0);
        reps.feedback(7, EntropyChoice.GOOD, 0);
        reps.feedback(3, EntropyChoice.NACK, 0);
        assertEquals(5, reps.next(1));
        assertEquals(7, reps.next(1));
        final int explored = reps.next(1);
        assertTrue(explored >= 0 && explored < 64, "explores a random entropy when none is fresh");
    }

    @Test
    void freezesAfterATimeoutAndCyclesThroughWhatItHolds() {
        final Reps reps = new Reps(64, 1);
        for (final int entropy : new int[] {1, 2, 3}) {
            reps.feedback(entropy, EntropyChoice.GOOD, 0);
        }
        reps.feedback(0, EntropyChoice.TIMEOUT, 10);
        assertTrue(reps.frozen());
        final List<Integer> used = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            used.add(reps.next(20));
        }
        assertEquals(List.of(1, 2, 3, 1, 2, 3), used);
        reps.feedback(4, EntropyChoice.GOOD, 10 + Reps.FREEZE + 1);
        assertFalse(reps.frozen(), "the freeze ends after its time");
    }

    @Test
    void obliviousSprayingUsesEveryEntropyOnceARound() {
        final EntropyChoice spray = EntropyChoice.of(UetSettings.LoadBalancer.OBLIVIOUS, 8, 3);
        final boolean[] seen = new boolean[8];
        for (int i = 0; i < 8; i++) {
            seen[spray.next(0)] = true;
        }
        for (final boolean each : seen) {
            assertTrue(each);
        }
    }

    @Test
    void aSinglePathNeverChanges() {
        final EntropyChoice one = EntropyChoice.of(UetSettings.LoadBalancer.SINGLE, 64, 3);
        final int first = one.next(0);
        one.feedback(first, EntropyChoice.NACK, 1);
        assertEquals(first, one.next(2));
    }
}
