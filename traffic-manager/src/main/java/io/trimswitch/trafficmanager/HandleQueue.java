package io.trimswitch.trafficmanager;

/**
 * A bounded FIFO of packet handles with exact occupancy: the one shape every queue of the traffic
 * manager has, whether single-threaded ({@link PacketFifo}, virtual time) or shared between threads
 * ({@link HandleRing}, real time).
 */
public interface HandleQueue {
    /** Appends {@code handle}; false, and counted as rejected, when the queue already holds its capacity. */
    boolean offer(int handle);

    /** The oldest handle, or {@link io.trimswitch.dataplane.packet.PacketPool#NO_PACKET} when empty. */
    int poll();

    /** The oldest handle without taking it, or {@link io.trimswitch.dataplane.packet.PacketPool#NO_PACKET}. */
    int peek();

    int size();

    boolean isEmpty();

    int capacity();

    /** The most packets the queue ever held at once. */
    int maxDepth();

    /** Packets accepted. */
    long enqueued();

    /** Packets refused because the queue was full. */
    long rejected();

    /** Empties the queue and its statistics; the caller owns the handles it held. */
    void reset();
}
