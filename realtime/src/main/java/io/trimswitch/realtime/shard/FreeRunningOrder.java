package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.switching.CatchUp;

import java.util.function.IntConsumer;

/**
 * One shard, or each shard of a live switch: meters what has arrived, in time order across its ports, and queues what
 * other shards handed over, as it comes. Before each arrival its recirculation and egress are brought up to just
 * before it (the catch-up rule, applied here alone), so that on one thread the switch keeps virtual time's order.
 */
final class FreeRunningOrder implements ShardOrder {
    private final ShardParts parts;
    private final PacketPool pool;
    /** Per port of the switch, for this shard's ports: packets waiting for their arrival time, in arrival order. */
    private final TimedIntFifo[] arriving;
    /** Packets in all of {@link #arriving}: with none (generated traffic is metered as it comes), no port is looked at. */
    private int waitingPackets;

    FreeRunningOrder(final ShardParts parts, final int ports) {
        this.parts = parts;
        this.pool = parts.pool();
        this.arriving = new TimedIntFifo[ports];
        for (final int port : parts.ownPorts()) {
            arriving[port] = new TimedIntFifo(PipelineShard.LINK_BACKLOG_PACKETS);
        }
    }

    @Override
    public boolean hasRoom(final int port) {
        return arriving[port].size() < PipelineShard.LINK_BACKLOG_PACKETS;
    }

    @Override
    public void arrive(final int port, final int handle, final long arrival) {
        pool.arrivalPicos(handle, arrival);
        arriving[port].add(arrival, handle);
        waitingPackets++;
    }

    @Override
    public void meter(final int handle) {
        final long arrival = pool.arrivalPicos(handle);
        final IngressStage stage = parts.ingressOf(pool.ingressPort(handle));
        // Virtual time's order: whatever happens before the arrival, then the arrival, then the instant's events.
        parts.catchUp().advanceTo(CatchUp.horizon(arrival, true));
        stage.drainInbox();
        stage.accept(handle);
    }

    @Override
    public int advance(final long now, final PortList ports) {
        // NOTIFYs from the recirculation ports.
        int work = parts.drainInboxes();
        work += parts.inbound().queueAll(parts.catchUp());
        // Arrivals in time order across this shard's ports, up to where every port's arrivals are in; each is metered
        // once everything before it has happened.
        final long through = Math.min(now, ports.horizon(now));
        for (int port = nextDue(through); port >= 0; port = nextDue(through)) {
            final int handle = arriving[port].removeHead();
            waitingPackets--;
            parts.lag(now, pool.arrivalPicos(handle));
            meter(handle);
            work++;
        }
        final long upTo = Math.min(horizon(now), ports.horizon(now));
        work += parts.catchUp().advanceTo(upTo);
        parts.doneThrough().set(upTo);
        return work;
    }

    @Override
    public void idleTurn() {
    }

    /** The port whose waiting packet arrives first, if it has arrived by {@code now}; else -1. */
    private int nextDue(final long now) {
        if (waitingPackets == 0) {
            return -1;
        }
        int due = -1;
        long earliest = now;
        long order = Long.MAX_VALUE;
        for (final int port : parts.ownPorts()) {
            final TimedIntFifo waiting = arriving[port];
            // At one instant, in the order the source made them, as every clock and shard takes them.
            if (!waiting.isEmpty() && (waiting.headTime() < earliest
                || waiting.headTime() == earliest && pool.arrivalOrder(waiting.headValue()) < order)) {
                earliest = waiting.headTime();
                order = pool.arrivalOrder(waiting.headValue());
                due = port;
            }
        }
        return due;
    }

    /** As far as egress may go: up to {@code now}, but never past a packet still waiting to arrive. */
    private long horizon(final long now) {
        if (waitingPackets == 0) {
            return now;
        }
        long horizon = now;
        for (final int port : parts.ownPorts()) {
            if (!arriving[port].isEmpty()) {
                horizon = Math.min(horizon, arriving[port].headTime() - 1);
            }
        }
        return horizon;
    }

    @Override
    public long nextArrivalPicos() {
        long next = Long.MAX_VALUE;
        final int[] ports = parts.ownPorts();
        for (int i = 0; i < ports.length && waitingPackets > 0; i++) {
            if (!arriving[ports[i]].isEmpty()) {
                next = Math.min(next, arriving[ports[i]].headTime());
            }
        }
        return next;
    }

    @Override
    public void addPort(final int port) {
        arriving[port] = new TimedIntFifo(PipelineShard.LINK_BACKLOG_PACKETS);
    }

    @Override
    public void drainWaiting(final IntConsumer inFlight) {
        for (final int port : parts.ownPorts()) {
            while (!arriving[port].isEmpty()) {
                inFlight.accept(arriving[port].removeHead());
                waitingPackets--;
            }
        }
    }

    @Override
    public void reset() {
    }
}
