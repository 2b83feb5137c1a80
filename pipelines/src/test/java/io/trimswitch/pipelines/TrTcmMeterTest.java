package io.trimswitch.pipelines;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.trimswitch.pipelines.TrTcmMeter.GREEN;
import static io.trimswitch.pipelines.TrTcmMeter.RED;
import static io.trimswitch.pipelines.TrTcmMeter.YELLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrTcmMeterTest {
    private static final long GBPS_100 = 100_000_000_000L;
    private static final long NS = 1000;

    @Test
    void aPacketExactlyTheSizeOfTheBucketIsGreenAndTheNextOneAtTheSameInstantIsRed() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(GBPS_100, 1500);
        assertEquals(GREEN, meter.mark(1500, 0));
        assertEquals(RED, meter.mark(1500, 0));
        assertEquals(RED, meter.mark(1, 0));
    }

    @Test
    void theBucketRefillsAtExactlyTheRateToThePicosecond() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(GBPS_100, 1500);
        meter.mark(1000, 0);
        // 500 B left; 500 B more take 40 ns at 100 Gb/s: at 40 ns minus 1 ps the bucket holds 999.99... B.
        assertEquals(RED, meter.mark(1000, 40 * NS - 1));
        assertEquals(GREEN, meter.mark(1000, 40 * NS));
        assertEquals(0, meter.peakTokensBytes());
    }

    @Test
    void theBucketNeverHoldsMoreThanItsDepth() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(GBPS_100, 1500);
        meter.mark(1500, 0);
        assertEquals(GREEN, meter.mark(1500, 1_000_000 * NS));
        assertEquals(RED, meter.mark(1, 1_000_000 * NS));
    }

    @Test
    void trafficAtExactlyTheMeterRateIsNeverRed() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(GBPS_100, 1500);
        for (int packet = 0; packet < 100_000; packet++) {
            assertEquals(GREEN, meter.mark(1500, packet * 120 * NS), "packet " + packet);
        }
    }

    @Test
    void trafficAtTwiceTheRateIsHalfRedOnceTheBurstIsSpent() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(GBPS_100, 24_000);
        int red = 0;
        for (int packet = 0; packet < 10_000; packet++) {
            if (meter.mark(1500, packet * 60 * NS) == RED) {
                red++;
            }
        }
        // 16 packets of burst pass on top of the half that the rate lets through.
        assertEquals(10_000 / 2 - 16, red, 1);
    }

    @Test
    void twoRatesGiveYellowBetweenCommittedAndPeak() {
        final TrTcmMeter meter = new TrTcmMeter(GBPS_100, 1500, GBPS_100 / 2, 1500);
        assertEquals(GREEN, meter.mark(1500, 0));
        // 120 ns later the peak bucket is full again, the committed one half full.
        assertEquals(YELLOW, meter.mark(1500, 120 * NS));
        assertEquals(RED, meter.mark(1500, 120 * NS));
        assertEquals(750, meter.committedTokensBytes());
    }

    @Test
    void aYellowPacketTakesOnlyPeakTokens() {
        final TrTcmMeter meter = new TrTcmMeter(GBPS_100, 3000, GBPS_100 / 2, 1000);
        assertEquals(YELLOW, meter.mark(1500, 0));
        assertEquals(1500, meter.peakTokensBytes());
        assertEquals(1000, meter.committedTokensBytes());
        assertEquals(GREEN, meter.mark(1000, 0));
    }

    @Test
    void aZeroRateMeterMarksEverythingRed() {
        final TrTcmMeter meter = TrTcmMeter.singleRate(0, 24_000);
        for (int packet = 0; packet < 100; packet++) {
            assertEquals(RED, meter.mark(64, packet * 1_000_000 * NS));
        }
    }

    @Test
    void overLongRunsTheGreenBytesNeverExceedBurstPlusRateTimesTime() {
        final SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            final long rate = 1_000_000_000L * (1 + random.nextInt(400));
            final int burst = 1500 + random.nextInt(30_000);
            final TrTcmMeter meter = TrTcmMeter.singleRate(rate, burst);
            long now = 0;
            long green = 0;
            for (int packet = 0; packet < 2000; packet++) {
                now += random.nextInt(200_000);
                final int bytes = 64 + random.nextInt(1437);
                if (meter.mark(bytes, now) == GREEN) {
                    green += bytes;
                }
            }
            final double allowed = burst + rate / 8.0 * now / 1e12;
            assertTrue(green <= allowed + 1e-6, "trial " + trial + ": " + green + " B green > " + allowed + " B allowed");
        }
    }

    @Test
    void impossibleMeterSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TrTcmMeter(GBPS_100, 1500, 2 * GBPS_100, 1500));
        assertThrows(IllegalArgumentException.class, () -> TrTcmMeter.singleRate(-1, 1500));
        assertThrows(IllegalArgumentException.class, () -> TrTcmMeter.singleRate(GBPS_100, TrTcmMeter.MAX_BURST_BYTES + 1));
    }
}
