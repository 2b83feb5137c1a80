package io.trimswitch.simulator;

/**
 * How virtual time wakes its ports' timing ({@link io.trimswitch.trafficmanager.EgressPort#advanceTo}, the same a
 * real-time shard drives): by an event at each port's next-due instant ({@link EagerEgress}), or when the traffic
 * manager next looks at the port ({@link LazyEgress}). Both end each transmission at the same instant, so a run's
 * report does not depend on which one it used.
 */
interface EgressTiming {
    /** The traffic manager is about to queue for {@code port} at {@code time}. */
    void beforeEnqueue(int port, long time);

    /** {@code port} was idle and has a packet to send from {@code time}. */
    void pending(int port, long time);

    /** The transmission on {@code port} ends now: its {@link EventType#EGRESS_DONE} event. */
    void transmissionDone(int port, long time);

    /** The run ends at {@code end}: transmissions due by then end. */
    void endRun(long end);

    /** Transmissions ended without an event of their own, each counted as the event it replaced. */
    long eventsReplaced();

    void reset();
}
