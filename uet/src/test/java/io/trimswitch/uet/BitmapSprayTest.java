package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BitmapSprayTest {
    private static Set<Integer> round(final EntropyChoice choice, final int sends) {
        final Set<Integer> used = new HashSet<>();
        for (int i = 0; i < sends; i++) {
            used.add(choice.next(0));
        }
        return used;
    }

    @Test
    void withoutFeedbackEveryEntropyIsUsedOnceARound() {
        final BitmapSpray bitmap = new BitmapSpray(16, 3);
        assertEquals(16, round(bitmap, 16).size());
        assertEquals(16, round(bitmap, 16).size());
    }

    @Test
    void penaltiesAddUpByKindAndStopAtTheMost() {
        final BitmapSpray bitmap = new BitmapSpray(16, 3);
        bitmap.feedback(5, EntropyChoice.ECN, 0);
        assertEquals(1, bitmap.penalty(5));
        bitmap.feedback(5, EntropyChoice.NACK, 0);
        assertEquals(5, bitmap.penalty(5));
        bitmap.feedback(5 + 16, EntropyChoice.NACK, 0);
        assertEquals(9, bitmap.penalty(5), "only the entropy's low bits index the bitmap");
        bitmap.feedback(5, EntropyChoice.GOOD, 0);
        assertEquals(9, bitmap.penalty(5), "a good ACK clears nothing");
        bitmap.feedback(0, EntropyChoice.TIMEOUT, 0);
        assertEquals(BitmapSpray.MAX_PENALTY, bitmap.penalty(0));
        bitmap.feedback(0, EntropyChoice.ECN, 0);
        assertEquals(BitmapSpray.MAX_PENALTY, bitmap.penalty(0));
    }

    @Test
    void aPenalisedEntropyIsSkippedOncePerPenaltyPoint() {
        final BitmapSpray bitmap = new BitmapSpray(16, 3);
        bitmap.feedback(7, EntropyChoice.NACK, 0);
        // Each round meets entropy 7 once and takes one point off: four rounds skip it, the fifth uses it again.
        for (int roundNumber = 1; roundNumber <= 4; roundNumber++) {
            final Set<Integer> used = round(bitmap, 15);
            assertFalse(used.contains(7), "round " + roundNumber);
            assertEquals(15, used.size());
            assertEquals(4 - roundNumber, bitmap.penalty(7));
        }
        assertTrue(round(bitmap, 16).contains(7));
    }

    @Test
    void withEveryEntropyPenalisedItGivesUpAfterARoundAndStillSends() {
        final BitmapSpray bitmap = new BitmapSpray(4, 3);
        for (int entropy = 0; entropy < 4; entropy++) {
            bitmap.feedback(entropy, EntropyChoice.TIMEOUT, 0);
        }
        final int entropy = bitmap.next(0);
        assertTrue(entropy >= 0 && entropy < 4);
        int total = 0;
        for (int e = 0; e < 4; e++) {
            total += bitmap.penalty(e);
        }
        assertEquals(4 * BitmapSpray.MAX_PENALTY - 1, total, "only the first entropy met loses a point");
    }

    @Test
    void resetForgetsThePenaltiesAndRepeatsTheSameOrder() {
        final BitmapSpray bitmap = new BitmapSpray(16, 9);
        final int first = bitmap.next(0);
        bitmap.feedback(first, EntropyChoice.TIMEOUT, 0);
        bitmap.reset();
        assertEquals(0, bitmap.penalty(first));
        assertEquals(first, bitmap.next(0));
    }
}
