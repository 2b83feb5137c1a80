package io.trimswitch.trafficmanager;

/** Makes the traffic manager's queues: plain FIFOs for one thread, lock-free rings between threads. */
@FunctionalInterface
public interface QueueFactory {
    /** Single-threaded FIFOs, for the virtual-time runtime. */
    QueueFactory SINGLE_THREADED = (capacity, manyProducers) -> new PacketFifo(capacity);

    /**
     * A queue of exactly {@code capacity} packets with one consumer and, when {@code manyProducers}, several
     * producer threads.
     */
    HandleQueue create(int capacity, boolean manyProducers);
}
