package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;

/**
 * One kind of port a shard owns, as DPDK's rx/tx burst and OVS's netdev classes are: generated traffic (real-time
 * scenarios), UDP/VXLAN sockets or AF_PACKET interfaces (the live switch). A shard holds a list of them
 * ({@link PortList}); another kind (AF_XDP, a tap device) is one more class. A kind never calls up into the shard: it
 * fills the shard's {@link Burst} with the buffers its frames now sit in, and the shard meters them ({@link Ingress}).
 * Every method runs on the shard's thread.
 */
public interface PortKind {
    /**
     * Reads a burst of what these ports received into buffers of the shard's partition, a descriptor each in
     * {@code burst}, never more than its room; returns how much work that was.
     */
    int receive(Burst burst);

    /**
     * Packet {@code handle} left egress port {@code port} at switch time {@code time}: it goes out with this turn's
     * {@link #flush()}, and its buffer with it.
     */
    void send(int port, int handle, long time);

    /** Sends what this turn's egress gave these ports, in as few system calls as they can. */
    default void flush() {
    }

    /** Frames taken for sending that these ports have not sent yet: the shard keeps polling to send them. */
    default boolean hasUnsent() {
        return false;
    }

    /**
     * Whether a port waits for buffers to lend the kernel for its arrivals (an AF_XDP fill ring its pool could not top
     * up): none can arrive to wake the shard, so it looks again soon instead of sleeping until woken.
     */
    default boolean waitsForBuffers() {
        return false;
    }

    /** The switch time up to which every arrival at these ports is in the shard (egress may not go past it). */
    default long horizon(final long now) {
        return now;
    }

    /**
     * Work done on every turn, before the switch has started too (a socket's binding, say); what it reads goes into
     * {@code burst}, as {@link #receive} does. Returns how much.
     */
    default int poll(final Burst burst) {
        return 0;
    }

    /**
     * Hands {@code watch} the file descriptors the kernel signals these ports' frames on, now and whenever one opens or
     * closes, so that the shard can sleep until one has a frame. Ports in memory have none.
     */
    default void watchFileDescriptors(final FileDescriptorWatch watch) {
    }

    /**
     * Whether every frame these ports hand the shard carries the instant it arrived (the kernel's receive stamp, a
     * generator's own time) rather than the instant a turn read it; the same for the kind's whole life. A shard whose
     * ports all do may sleep as soon as a turn finds nothing ({@link AdaptivePoll}): a late wake-up no longer puts what
     * waited at one instant, a burst the wire never had.
     */
    default boolean stampsArrivals() {
        return false;
    }

    /** After the shard's last turn. */
    default void close() {
    }
}
