package io.trimswitch.live.port;

import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.realtime.shard.DilatedClock;

/**
 * When a frame a live port read comes in, before its link spaces it ({@code IngressLinks}): at the instant the kernel
 * received it where its kind stamps it, so that a thread that wakes late does not take what waited for it as a burst
 * at one instant, which a fast port's 16-packet data queue would trim though the wire never carried one. Never earlier
 * than just after what the shard has metered already, which keeps virtual time's order and every port's clock going
 * forwards; never later than the turn that reads it. An unstamped frame (UDP/VXLAN) comes in at that turn.
 */
final class FrameArrival {
    private FrameArrival() {
    }

    /**
     * @param receivedNanos  host time the kernel received the frame at ({@link Burst#UNSTAMPED}: unknown)
     * @param meteredThrough switch time up to which the shard has metered arrivals (MIN_VALUE: nothing yet)
     * @param now            switch time of the read
     */
    static long heard(final long receivedNanos, final DilatedClock clock, final long meteredThrough, final long now) {
        if (receivedNanos == Burst.UNSTAMPED) {
            return now;
        }
        final long earliest = meteredThrough == Long.MIN_VALUE ? Long.MIN_VALUE : meteredThrough + 1;
        return Math.min(now, Math.max(clock.picosAt(receivedNanos), earliest));
    }

    /**
     * How far a shard may go where its ports took every frame the kernel received up to host time {@code readThroughNanos}
     * (MAX_VALUE: every frame up to now): frames still waiting past it are timed by their stamps next turn. Never short
     * of {@code arrivedThrough}, the latest arrival the shard was handed: a frame taken is metered even where it was timed
     * after its stamp (behind what was metered, or spaced by its link), else a port that stays past its budget would
     * hold every frame it took until its backlog overflowed.
     */
    static long horizon(final long readThroughNanos, final DilatedClock clock, final long now, final long arrivedThrough) {
        return readThroughNanos == Long.MAX_VALUE ? now : Math.min(now, Math.max(clock.picosAt(readThroughNanos), arrivedThrough));
    }
}
