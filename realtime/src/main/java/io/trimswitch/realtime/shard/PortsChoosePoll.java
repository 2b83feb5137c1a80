package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import org.agrona.concurrent.IdleStrategy;

/**
 * {@code realtime.idle: poll} with {@code realtime.pollAfterTrafficUs} unset: the shard's ports choose, on every idle
 * turn, from what the shard has now. While every port times its frames by their arrival (interface ports by the kernel's
 * receive stamp) it sleeps as soon as a turn finds nothing ({@link AdaptivePoll}); while any port does not (a UDP/VXLAN
 * port) it polls 10 ms after the last frame ({@link PollThenSleep}), since a late wake-up would time every frame that
 * waited by the turn that read it, a burst at one instant that the port's 16-packet data queue would trim. Both keep
 * count of every turn's work, so a port that comes or goes switches it without a stale window; nothing is allocated.
 */
final class PortsChoosePoll implements IdleStrategy {
    private final PollThenSleep.Rest rest;
    private final AdaptivePoll adaptive;
    private final PollThenSleep window;

    PortsChoosePoll(final PollThenSleep.Rest rest) {
        this.rest = rest;
        this.adaptive = new AdaptivePoll(rest);
        this.window = new PollThenSleep(rest, Settings.RealTime.UNSTAMPED_POLL_AFTER_TRAFFIC_US * 1_000L);
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            adaptive.idle(workCount);
            window.idle(workCount);
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (rest.everyPortStamped()) {
            adaptive.idle();
        } else {
            window.idle();
        }
    }

    @Override
    public void reset() {
    }
}
