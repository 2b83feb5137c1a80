package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.DropReason;

/**
 * What the traffic manager tells its runtime. The virtual-time runtime turns the two "pending"
 * calls into events; a real-time runtime ignores them because its shards poll.
 */
public interface TrafficManagerEvents {
    /** The packet leaves the switch here: count it under {@code reason} and free its buffer. */
    void drop(int handle, DropReason reason, long now);

    /**
     * The traffic manager is about to look at egress port {@code port}'s queues at {@code now}. A runtime
     * that finishes transmissions lazily, when someone looks, brings the port up to {@code now} here.
     */
    default void beforeEnqueue(final int port, final long now) {
    }

    /** Egress port {@code port} was idle and now has a packet waiting. */
    void egressPending(int port, long now);

    /** The recirculation (DoD or mirror) queue of {@code pipeline} has a packet waiting. */
    void recirculationPending(int pipeline, long now);

    /**
     * Whether this runtime wants {@link #egressPending} at all. A runtime whose threads poll says no, and
     * the traffic manager then never reads the egress port's state, which another thread writes.
     */
    default boolean wantsWakeUps() {
        return true;
    }
}
