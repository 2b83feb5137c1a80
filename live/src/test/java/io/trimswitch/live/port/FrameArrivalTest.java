package io.trimswitch.live.port;

import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.realtime.shard.DilatedClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * When a frame read by a live port comes in, with stamps planted on a host clock the test moves: at the kernel's
 * receive time, however late the turn that reads it, but never before what the shard has metered nor after the read.
 */
class FrameArrivalTest {
    private static final long MICROS = 1_000_000;
    /** Host nanoseconds at switch time zero. */
    private static final long EPOCH_NANOS = 7_000_000_000L;

    private long hostNanos = EPOCH_NANOS;
    private final DilatedClock clock = new DilatedClock(() -> hostNanos, 1);

    FrameArrivalTest() {
        clock.startIn(0);
    }

    /** The host time at switch time {@code picos}. */
    private static long host(final long picos) {
        return EPOCH_NANOS + picos / 1000;
    }

    @Test
    void aTurnTenMillisecondsLateKeepsTheFramesAtTheInstantsTheKernelReceivedThem() {
        final long metered = 0;
        final long now = 10_000 * MICROS;
        for (int frame = 0; frame < 100; frame++) {
            final long received = (frame + 1) * 83 * MICROS;
            assertEquals(received, FrameArrival.heard(host(received), clock, metered, now), "frame " + frame);
        }
    }

    @Test
    void aLateTurnsFramesStaySpacedAsTheWireCarriedThemAndNotAtTheLinksRate() {
        final IngressLinks links = new IngressLinks(new LinkRate[] {LinkRate.gbps(100)});
        final long now = 10_000 * MICROS;
        long previous = Long.MIN_VALUE;
        for (int frame = 0; frame < 100; frame++) {
            final long arrival = links.arrival(0, 1500, FrameArrival.heard(host((frame + 1) * 83 * MICROS), clock, 0, now));
            if (previous != Long.MIN_VALUE) {
                assertEquals(83 * MICROS, arrival - previous, "frame " + frame);
            }
            previous = arrival;
        }
    }

    @Test
    void framesStampedBeforeWhatTheShardMeteredArriveJustAfterItStillSpacedByTheLink() {
        final IngressLinks links = new IngressLinks(new LinkRate[] {LinkRate.gbps(100)});
        final long metered = 5_000 * MICROS;
        final long now = 6_000 * MICROS;
        final long first = links.arrival(0, 1500, FrameArrival.heard(host(1_000 * MICROS), clock, metered, now));
        final long second = links.arrival(0, 1500, FrameArrival.heard(host(2_000 * MICROS), clock, metered, now));
        assertEquals(metered + 1, first);
        assertEquals(first + LinkRate.gbps(100).serialisation(1500), second, "no faster than the link");
    }

    @Test
    void anUnstampedFrameComesInAtTheTurnThatReadsIt() {
        assertEquals(6_000 * MICROS, FrameArrival.heard(Burst.UNSTAMPED, clock, 5_000 * MICROS, 6_000 * MICROS));
    }

    @Test
    void aStampPastTheReadComesInAtTheRead() {
        assertEquals(6_000 * MICROS, FrameArrival.heard(host(9_000 * MICROS), clock, 5_000 * MICROS, 6_000 * MICROS));
    }

    @Test
    void beforeTheFirstTurnOnlyTheReadBoundsIt() {
        assertEquals(-3 * MICROS, FrameArrival.heard(host(-3 * MICROS), clock, Long.MIN_VALUE, 0));
    }

    @Test
    void aShardGoesOnlyUpToTheLastFrameTakenFromARingThatHoldsMore() {
        assertEquals(4_000 * MICROS, FrameArrival.horizon(host(4_000 * MICROS), clock, 6_000 * MICROS, Long.MIN_VALUE));
        assertEquals(6_000 * MICROS, FrameArrival.horizon(Long.MAX_VALUE, clock, 6_000 * MICROS, Long.MIN_VALUE), "every ring emptied: up to now");
        assertEquals(6_000 * MICROS, FrameArrival.horizon(host(7_000 * MICROS), clock, 6_000 * MICROS, Long.MIN_VALUE), "never past now");
        assertEquals(5_000 * MICROS, FrameArrival.horizon(host(4_000 * MICROS), clock, 6_000 * MICROS, 5_000 * MICROS),
            "a frame taken but timed after its stamp (behind what was metered, or spaced by its link) is metered all the same");
        assertEquals(6_000 * MICROS, FrameArrival.horizon(host(4_000 * MICROS), clock, 6_000 * MICROS, 7_000 * MICROS), "and still never past now");
    }

    @Test
    void aDilatedClockMapsTheStampLikeTheTurnsOwnReading() {
        hostNanos = EPOCH_NANOS;
        final DilatedClock slow = new DilatedClock(() -> hostNanos, 10);
        slow.startIn(0);
        // 10 µs of host time is 1 µs of switch time.
        assertEquals(MICROS, FrameArrival.heard(EPOCH_NANOS + 10_000, slow, 0, 2 * MICROS));
    }
}
