package io.trimswitch.realtime.shard;

/**
 * The ports a {@link PipelineShard} owns, of whatever kind: generated traffic (real-time scenarios), UDP/VXLAN
 * sockets and AF_PACKET interfaces (the live switch). They bring packets in through the shard's
 * {@link PipelineShard#arrive} or {@link PipelineShard#meter}, and take out what left the shard's egress ports.
 * Every method runs on the shard's thread, except {@link #wake()}.
 */
public interface ShardPorts {
    /** Work done on every turn, before the switch has started too (a socket's binding, say); returns how much. */
    int poll();

    /** Reads what the ports have and hands it to the shard; returns how much. */
    int receive();

    /** The switch time up to which every arrival at these ports is in the shard (egress may not go past it). */
    long horizon(long now);

    /** A packet has left egress port {@code port} at {@code time}: it is sent (or recorded), and its buffer goes with it. */
    void departed(int port, int handle, long time);

    /** Sends what departed in this turn. */
    void flush();

    /** Frames taken for sending that the ports have not yet sent. */
    boolean hasUnsent();

    /** Sleeps up to {@code nanos} host nanoseconds ({@link PipelineShard#UNTIL_WOKEN}: until woken) unless woken first. */
    void await(long nanos);

    /** From any thread: ends an {@link #await} now or makes the next one return at once. */
    void wake();

    /** On the shard's thread after its last turn. */
    void close();
}
