package io.trimswitch.pipelines;

import org.junit.jupiter.api.Test;

import static io.trimswitch.pipelines.TrTcmMeter.GREEN;
import static io.trimswitch.pipelines.TrTcmMeter.RED;
import static io.trimswitch.pipelines.TrTcmMeter.YELLOW;
import static io.trimswitch.pipelines.TrimState.HALFTIMISTIC;
import static io.trimswitch.pipelines.TrimState.OPTIMISTIC;
import static io.trimswitch.pipelines.TrimState.PESSIMISTIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TwoMeterProfileTest {
    private static final int[] COLOURS = {GREEN, YELLOW, RED};

    @Test
    void pessimisticTrimsUnlessPesiIsGreenWhateverOptiSays() {
        for (final int opti : COLOURS) {
            assertFalse(TwoMeterProfile.decide(PESSIMISTIC, GREEN, opti));
            assertTrue(TwoMeterProfile.decide(PESSIMISTIC, YELLOW, opti));
            assertTrue(TwoMeterProfile.decide(PESSIMISTIC, RED, opti));
        }
    }

    @Test
    void halftimisticTrimsUnlessOptiIsGreenWhateverPesiSays() {
        for (final int pesi : COLOURS) {
            assertFalse(TwoMeterProfile.decide(HALFTIMISTIC, pesi, GREEN));
            assertTrue(TwoMeterProfile.decide(HALFTIMISTIC, pesi, YELLOW));
            assertTrue(TwoMeterProfile.decide(HALFTIMISTIC, pesi, RED));
        }
    }

    @Test
    void optimisticTrimsOnlyWhenOptiIsRedWhateverPesiSays() {
        for (final int pesi : COLOURS) {
            assertFalse(TwoMeterProfile.decide(OPTIMISTIC, pesi, GREEN));
            assertFalse(TwoMeterProfile.decide(OPTIMISTIC, pesi, YELLOW));
            assertTrue(TwoMeterProfile.decide(OPTIMISTIC, pesi, RED));
        }
    }

    @Test
    void eachStateTrimsItsShareOfTwiceTheLineRate() {
        final long rate = 100_000_000_000L;
        for (final int state : new int[] {OPTIMISTIC, HALFTIMISTIC, PESSIMISTIC}) {
            for (final boolean twoMeters : new boolean[] {true, false}) {
                final IngressMeters meters = twoMeters
                    ? new TwoMeterProfile(1, rate, rate / 2, rate / 4, 24_000)
                    : new ThreeMeterProfile(1, rate, rate / 2, rate / 4, 24_000);
                int queued = 0;
                final int packets = 40_000;
                for (int packet = 0; packet < packets; packet++) {
                    if (!meters.shouldTrim(0, state, 1500, packet * 60_000L)) {
                        queued++;
                    }
                }
                // Offered 2R for 2.4 ms: R, R/2 or R/4 worth passes (plus the 16-packet burst).
                final int expected = state == OPTIMISTIC ? packets / 2 : state == HALFTIMISTIC ? packets / 4 : packets / 8;
                assertEquals(expected + 16, queued, 2, TrimState.name(state) + (twoMeters ? " two meters" : " three meters"));
            }
        }
    }
}
