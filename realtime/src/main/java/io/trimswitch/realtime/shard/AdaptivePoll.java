package io.trimswitch.realtime.shard;

import org.agrona.concurrent.IdleStrategy;

/**
 * {@code realtime.idle: poll} unless {@code realtime.pollAfterTrafficUs} is set, while every port of the shard times its
 * frames by their arrival ({@link PortsChoosePoll}): the thread sleeps in the ports' poller
 * as soon as a turn finds nothing, as a C forwarder sleeps in poll(), except for a moment after a frame that ends a
 * quiet spell, when it polls for the answer. Traffic dense enough that polling beats a wake-up keeps it busy anyway: a
 * turn that did any work is followed by another turn, not a sleep. It reads no clock of its own
 * ({@link PollThenSleep.Rest#turnNanos()}).
 *
 * <p>Why no window after every frame: a steady load arrives in bursts (a sender's timer, a NIC's interrupt moderation)
 * tens of microseconds apart, and polling through each gap costs the whole gap where a wake-up costs a few
 * microseconds; a window of 10 ms kept the thread polling a whole core at 50 thousand frames a second.
 */
final class AdaptivePoll implements IdleStrategy {
    /**
     * How long without a frame makes the next one the start of an exchange (a ping, a TCP handshake, a DNS query)
     * rather than part of a stream. Frames at least this far apart cost at most {@link #ANSWER_WINDOW_NANOS} of polling
     * each: a tenth of a core at worst, at a thousand such frames a second.
     */
    static final long QUIET_SPELL_NANOS = 1_000_000;
    /**
     * How long the thread polls after a frame that ends a quiet spell: its answer (a ping's reply, a SYN's SYN-ACK) comes
     * back within tens of microseconds on a host's veth, and a sleeping thread would pay a wake-up for it.
     */
    static final long ANSWER_WINDOW_NANOS = 100_000;

    private final PollThenSleep.Rest rest;
    private boolean trafficSeen;
    private long lastTrafficNanos;
    /** Until when the thread polls for an answer (host nanoseconds of the shard's turns). */
    private long answerDeadlineNanos;

    AdaptivePoll(final PollThenSleep.Rest rest) {
        this.rest = rest;
    }

    @Override
    public void idle(final int workCount) {
        if (workCount == 0) {
            idle();
        } else if (rest.receivedLastTurn()) {
            final long now = rest.turnNanos();
            if (!trafficSeen || now - lastTrafficNanos >= QUIET_SPELL_NANOS) {
                answerDeadlineNanos = now + ANSWER_WINDOW_NANOS;
            }
            trafficSeen = true;
            lastTrafficNanos = now;
        }
    }

    @Override
    public void idle() {
        if (trafficSeen && rest.turnNanos() - answerDeadlineNanos < 0) {
            return;
        }
        final long sleep = rest.sleepNanos();
        if (sleep > 0) {
            rest.await(sleep);
        }
    }

    @Override
    public void reset() {
    }
}
