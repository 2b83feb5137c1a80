package io.trimswitch.recirc;

/**
 * How a NOTIFY travels from the recirculation port that raised it to an ingress pipeline: an event in
 * virtual time ({@link DelayedNotifications}), a message through a lock-free inbox in real time.
 */
@FunctionalInterface
public interface NotifyChannel {
    /** Tells {@code pipeline} at time {@code due} that {@code egressPort} is congested. */
    void send(int egressPort, int pipeline, long due);
}
