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

    @Test
    void aRetunedPortsMetersStartAfreshAtTheirNewRatesAndOtherPortsKeepTheirs() {
        final long gbps = 1_000_000_000L;
        final IngressMeters three = new ThreeMeterProfile(2, 100 * gbps, 50 * gbps, 25 * gbps, 3000);
        final IngressMeters two = new TwoMeterProfile(2, 100 * gbps, 50 * gbps, 25 * gbps, 3000);
        for (final IngressMeters meters : new IngressMeters[] {three, two}) {
            // Two 1500-byte packets at once fill a 3000-byte bucket; a third is trimmed.
            for (int port = 0; port < 2; port++) {
                assertFalse(meters.shouldTrim(port, TrimState.OPTIMISTIC, 1500, 0));
                assertFalse(meters.shouldTrim(port, TrimState.OPTIMISTIC, 1500, 0));
                assertTrue(meters.shouldTrim(port, TrimState.OPTIMISTIC, 1500, 0));
            }
            // Port 0 at 1 Gb/s with a 1500-byte bucket: full again, one packet fits, and it refills 100 times slower.
            meters.retune(0, gbps, gbps / 2, gbps / 4, 1500);
            assertFalse(meters.shouldTrim(0, TrimState.OPTIMISTIC, 1500, 0));
            assertTrue(meters.shouldTrim(0, TrimState.OPTIMISTIC, 1500, 1_000_000), "1 us refills 125 bytes at 1 Gb/s");
            assertTrue(meters.shouldTrim(1, TrimState.OPTIMISTIC, 1500, 0), "port 1's bucket was not touched");
        }
    }
}
