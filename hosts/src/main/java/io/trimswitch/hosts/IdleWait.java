package io.trimswitch.hosts;

import java.io.IOException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;

/**
 * How a live host waits when it has nothing to do until its next deadline: in the selector when the deadline is far
 * (a datagram wakes it at once), parked when it is near, spinning through the last stretch.
 * A host on a small machine shares its cores with the switch: it must not spin while idle.
 */
final class IdleWait implements AutoCloseable {
    private static final long SELECT_ABOVE_NANOS = 2_000_000;
    /** A parked thread wakes up to the kernel's timer slack (50 us) late: the last stretch before a deadline is spun. */
    private static final long SPIN_BELOW_NANOS = 80_000;
    private static final long TIMER_SLACK_NANOS = 60_000;

    private final Selector selector;

    IdleWait(final DatagramChannel... channels) throws IOException {
        this.selector = Selector.open();
        for (final DatagramChannel channel : channels) {
            channel.register(selector, SelectionKey.OP_READ);
        }
    }

    /** Waits until about {@code deadline} (host nanoseconds) or a datagram, whichever comes first. */
    void until(final long deadline, final long now) throws IOException {
        final long wait = deadline - now;
        if (wait >= SELECT_ABOVE_NANOS) {
            selector.select(Math.max(1, wait / 1_000_000));
            selector.selectedKeys().clear();
        } else if (wait > SPIN_BELOW_NANOS) {
            LockSupport.parkNanos(wait - TIMER_SLACK_NANOS);
        } else {
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
