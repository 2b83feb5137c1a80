package io.trimswitch.ndp.live;

import java.io.IOException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * How a live host waits when it has nothing to do until its next deadline: in the selector when the deadline is far
 * (a datagram wakes it at once), parked when it is near, spinning only when it is due.
 * A host on a small machine shares its cores with the switch: it must not spin while idle.
 */
final class IdleWait implements AutoCloseable {
    private static final long SELECT_ABOVE_NANOS = 2_000_000;
    /**
     * Only the last few microseconds before a deadline are spun. A parked thread wakes up to the kernel's timer slack
     * (50 us) late; the hosts absorb that (a late PULL may catch up on its schedule), where spinning through it would
     * take half a core from the switch and the other hosts for each host pulling at 0.1 Gb/s.
     */
    private static final long SPIN_BELOW_NANOS = 20_000;
    /** A parked host does not see its sockets: it looks again after this long at most. */
    private static final long LONGEST_PARK_NANOS = 100_000;

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
            LockSupport.parkNanos(Math.min(wait, LONGEST_PARK_NANOS));
        } else {
            Thread.onSpinWait();
        }
    }

    /** Hands each channel's key that has datagrams waiting to {@code ready}, without waiting or allocating. */
    void selectNow(final Consumer<SelectionKey> ready) throws IOException {
        selector.selectNow(ready);
    }

    /** Ends a wait in the selector early (from another thread). */
    void wakeUp() {
        selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
