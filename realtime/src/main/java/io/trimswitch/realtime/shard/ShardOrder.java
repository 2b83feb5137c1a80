package io.trimswitch.realtime.shard;

import java.util.function.IntConsumer;

/**
 * The ordering policy a shard's duty cycle is given: where packets wait for their arrival time, and in what order, up
 * to when, they are metered, queued and sent. A live switch forwards as they come ({@link FreeRunningOrder}); a
 * scenario's shards keep virtual time's order across threads ({@link ConservativeOrder}).
 */
interface ShardOrder {
    /** Whether port {@code port}'s link holds fewer than {@link PipelineShard#LINK_BACKLOG_PACKETS} frames not yet arrived. */
    boolean hasRoom(int port);

    /** Packet {@code handle} arrives at its own port {@code port} at {@code arrival}; it is metered in arrival order. */
    void arrive(int port, int handle, long arrival);

    /** Meters {@code handle} now, its arrival due: for ports whose packets come in arrival order as they are due. */
    void meter(int handle);

    /** The turn's forwarding, up to switch time {@code now} and what {@code ports} have received; returns how much. */
    int advance(long now, PortList ports);

    /** After a turn in which the shard did nothing. */
    void idleTurn();

    /** The first instant a packet waiting on its link arrives; MAX_VALUE: none that time alone brings in. */
    long nextArrivalPicos();

    /** Port {@code port} is the shard's from now on. */
    void addPort(int port);

    /** Once stopped: every packet still waiting to arrive, to {@code inFlight}. */
    void drainWaiting(IntConsumer inFlight);

    void reset();
}
