package io.trimswitch.simulator;

import java.util.Arrays;

/**
 * The network's links as its failures take them down: from a failure's instant both ends of its link stop carrying
 * frames (what is sent onto it or is on it is lost), and the network learns of it a detection time later.
 */
final class DownLinks {
    private final LinkFailures failures;
    /** Per network port: its link has failed. */
    private final boolean[] down;

    DownLinks(final LinkFailures failures, final int ports) {
        this.failures = failures;
        this.down = new boolean[ports];
    }

    /** Puts each failure that happens in a run on the event queue. */
    void schedule(final EventQueue events) {
        for (int failure = 0; failure < failures.count(); failure++) {
            if (failures.downAtPicos(failure) >= 0) {
                events.schedule(failures.downAtPicos(failure), EventType.LINK_DOWN, failure);
            }
        }
    }

    /** Failure {@code failure} happens at {@code now}: its link's ends go down, and the routes follow later. */
    void fail(final int failure, final long now, final EventQueue events) {
        for (final int end : failures.ends(failure)) {
            down[end] = true;
        }
        events.schedule(now + failures.detectionPicos(), EventType.ROUTES_UPDATED, failure);
    }

    void routeAround(final int failure) {
        failures.routeAround(failure);
    }

    boolean isDown(final int port) {
        return down[port];
    }

    /** Every link up again, the routes as they were. */
    void reset() {
        Arrays.fill(down, false);
        failures.reset();
    }
}
