package io.trimswitch.recirc;

/**
 * How a NOTIFY travels from the recirculation port that raised it to an ingress pipeline: an event in
 * virtual time ({@link DelayedNotifications}), a message through a lock-free inbox in real time.
 */
@FunctionalInterface
public interface NotifyChannel {
    /** Tells {@code pipeline} at time {@code due} that {@code egressPort} is congested. */
    void send(int egressPort, int pipeline, long due);

    /**
     * As {@link #send(int, int, long)}, for a signal raised {@code agePicos} after its packet was deflected: how long
     * the packet waited in its DoD queue, which a loop that reads the signal's age can use. Channels that do not
     * carry it send the signal alone.
     */
    default void send(final int egressPort, final int pipeline, final long due, final long agePicos) {
        send(egressPort, pipeline, due);
    }
}
