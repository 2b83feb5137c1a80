package io.trimswitch.simulator;

/**
 * How the ports' transmissions end in virtual time: by an event each ({@link EagerEgress}), or when the traffic
 * manager next looks at the port ({@link LazyEgress}). Both end each transmission at the same instant, so a run's
 * report does not depend on which one it used.
 */
interface EgressTiming {
    /** What the switch does with a packet whose last bit has left a port. */
    interface Delivery {
        void deliver(int port, int handle, long time);
    }

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
