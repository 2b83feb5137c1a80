package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How a shard's thread idles between turns ({@code realtime.idle}), given to its runner beside the shard as Agrona
 * composes an agent with an idle strategy: {@code poll} sleeps in the shard's ports' poller when the shard allows it;
 * the others are Agrona's strategies of the name, which never sleep in the kernel.
 */
final class IdlePolicy {
    private IdlePolicy() {
    }

    /**
     * The strategy for {@code realtime}'s idle mode; {@code rest} is the shard it idles, asked how long it may sleep;
     * {@code poll} polls {@code realtime.pollAfterTrafficUs} after the last frame where it is set, and otherwise as the
     * shard's ports allow ({@link PortsChoosePoll}).
     */
    static IdleStrategy of(final Settings.RealTime realtime, final PollThenSleep.Rest rest) {
        switch (realtime.idle()) {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy();
            case SLEEP:
                return new SleepingIdleStrategy();
            case POLL:
                return realtime.pollAfterTrafficUs() == null ? new PortsChoosePoll(rest)
                    : new PollThenSleep(rest, realtime.pollAfterTrafficUs() * 1_000L);
            default:
                throw new IllegalStateException("idle " + realtime.idle());
        }
    }
}
