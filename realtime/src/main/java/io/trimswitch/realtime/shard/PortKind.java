package io.trimswitch.realtime.shard;

/**
 * One kind of port a shard owns, as DPDK's rx/tx burst and OVS's netdev classes are: generated traffic (real-time
 * scenarios), UDP/VXLAN sockets or AF_PACKET interfaces (the live switch). A shard holds a list of them
 * ({@link PortList}); another kind (AF_XDP, a tap device) is one more class. Every method runs on the shard's thread.
 */
public interface PortKind {
    /**
     * Reads a burst of what these ports received and hands each frame to the shard ({@link PipelineShard#arrive} or
     * {@link PipelineShard#meter}); returns how much work that was.
     */
    int receive();

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

    /** The switch time up to which every arrival at these ports is in the shard (egress may not go past it). */
    default long horizon(final long now) {
        return now;
    }

    /** Work done on every turn, before the switch has started too (a socket's binding, say); returns how much. */
    default int poll() {
        return 0;
    }

    /**
     * Hands {@code watch} the file descriptors the kernel signals these ports' frames on, now and whenever one opens or
     * closes, so that the shard can sleep until one has a frame. Ports in memory have none.
     */
    default void watchFileDescriptors(final FileDescriptorWatch watch) {
    }

    /** After the shard's last turn. */
    default void close() {
    }
}
