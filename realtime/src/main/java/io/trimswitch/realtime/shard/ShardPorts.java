package io.trimswitch.realtime.shard;

/**
 * The ports a {@link PipelineShard} owns, of whatever kind: generated traffic (real-time scenarios), UDP/VXLAN
 * sockets and AF_PACKET interfaces (the live switch). They bring packets in through the shard's
 * {@link PipelineShard#arrive} or {@link PipelineShard#meter}, and take out what left the shard's egress ports.
 * Every method runs on the shard's thread, except {@link #wake()}. What a kind of port has no use for does nothing by
 * default: ports in memory have no socket to bind, nothing to send in a batch, nothing to close.
 */
public interface ShardPorts {
    /** Reads what the ports have and hands it to the shard; returns how much. */
    int receive();

    /** The switch time up to which every arrival at these ports is in the shard (egress may not go past it). */
    long horizon(long now);

    /** A packet has left egress port {@code port} at {@code time}: it is sent (or recorded), and its buffer goes with it. */
    void departed(int port, int handle, long time);

    /** Sleeps up to {@code nanos} host nanoseconds ({@link PipelineShard#UNTIL_WOKEN}: until woken) unless woken first. */
    void await(long nanos);

    /** Work done on every turn, before the switch has started too (a socket's binding, say); returns how much. */
    default int poll() {
        return 0;
    }

    /** Sends what departed in this turn. */
    default void flush() {
    }

    /** Frames taken for sending that the ports have not yet sent. */
    default boolean hasUnsent() {
        return false;
    }

    /** From any thread: ends an {@link #await} now or makes the next one return at once. */
    default void wake() {
    }

    /** On the shard's thread after its last turn. */
    default void close() {
    }
}
