package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.function.IntConsumer;

/**
 * Several shards that keep virtual time's order (conservative parallel simulation, docs/design.md "Many shards, one
 * order"): each meters its arrivals only up to the time the traffic manager's shard says every NOTIFY before it is in
 * ({@code notifiesBefore}), and hands each packet over its own ring; the traffic manager's shard queues them in arrival
 * order across the rings only up to the earliest arrival some shard has still to meter ({@code meteredBefore}). The
 * shards read each other's published times, never each other.
 */
final class ConservativeOrder implements ShardOrder {
    private final ShardParts parts;
    private final PacketPool pool;
    /**
     * Every packet waiting to arrive at this shard's ports, in the order they arrive. The generator makes them in that
     * order, so one queue keeps it, and the next arrival is its head rather than the least of every port's.
     */
    private final TimedIntFifo inOrder;
    /** Every arrival at this shard's ports before this switch time has been metered and handed on. */
    private final PublishedTime meteredBefore;
    /** Every shard's {@link #meteredBefore}, which the traffic manager's shard reads; null on the others. */
    private final PublishedTime[] everyMeteredBefore;
    /** Written by the traffic manager's shard: every NOTIFY due before this switch time is in its inbox. */
    private final PublishedTime notifiesBefore;
    /** The least switch time from a recirculation port's start to the NOTIFY it raises reaching a pipeline. */
    private final long lookahead;

    /**
     * @param everyMeteredBefore every shard's published metering time, for the traffic manager's shard; else null
     * @param lookahead          switch time a NOTIFY takes at the least
     */
    ConservativeOrder(final ShardParts parts, final PublishedTime meteredBefore, final PublishedTime[] everyMeteredBefore,
        final PublishedTime notifiesBefore, final long lookahead) {
        this.parts = parts;
        this.pool = parts.pool();
        this.inOrder = new TimedIntFifo(PipelineShard.LINK_BACKLOG_PACKETS * Math.max(1, parts.ownPorts().length));
        this.meteredBefore = meteredBefore;
        this.everyMeteredBefore = everyMeteredBefore;
        this.notifiesBefore = notifiesBefore;
        this.lookahead = lookahead;
    }

    @Override
    public boolean hasRoom(final int port) {
        return inOrder.size() < PipelineShard.LINK_BACKLOG_PACKETS * parts.ownPorts().length;
    }

    @Override
    public void arrive(final int port, final int handle, final long arrival) {
        pool.arrivalPicos(handle, arrival);
        inOrder.add(arrival, handle);
    }

    /** Its pipelines queue nothing: they may run ahead of the traffic manager, and need no catch-up. */
    @Override
    public void meter(final int handle) {
        parts.ingressOf(pool.ingressPort(handle)).accept(handle);
    }

    @Override
    public int advance(final long now, final PortList ports) {
        final int work = meterInOrder(now, ports);
        return everyMeteredBefore == null ? work : work + queueInOrder(now);
    }

    /** Waiting on another shard, which may share this core: let it run rather than spin through its turn. */
    @Override
    public void idleTurn() {
        Thread.yield();
    }

    /**
     * Meters the arrivals due by {@code now} for which every NOTIFY due before them is in, then publishes how far its
     * arrivals are all metered. Its pipelines queue nothing: they hand every packet to the traffic manager's shard, in
     * the order they meter them.
     */
    private int meterInOrder(final long now, final PortList ports) {
        // Read before the inboxes are drained: every NOTIFY it promises is in them by then.
        final long notifiesIn = notifiesBefore.get();
        int work = parts.drainInboxes();
        final long meterUpTo = Math.min(now, notifiesIn);
        while (!inOrder.isEmpty() && inOrder.headTime() <= meterUpTo) {
            final int handle = inOrder.removeHead();
            parts.lag(now, pool.arrivalPicos(handle));
            meter(handle);
            work++;
        }
        final long received = ports.horizon(now);
        final long metered = Math.min(received == Long.MAX_VALUE ? received : received + 1, inOrder.isEmpty() ? Long.MAX_VALUE : inOrder.headTime());
        meteredBefore.set(metered);
        if (everyMeteredBefore == null) {
            parts.doneThrough().set(Math.min(now, metered - 1));
        }
        return work;
    }

    /**
     * On the traffic manager's shard: queues the packets every shard handed over, in arrival order across them, up to
     * the earliest arrival some shard has still to meter; brings recirculation and egress up to just before it; then
     * publishes up to when every NOTIFY is in the pipelines' inboxes.
     */
    private int queueInOrder(final long now) {
        long bound = Long.MAX_VALUE;
        for (final PublishedTime metered : everyMeteredBefore) {
            // Read before the rings: what a shard promises is on its ring by then.
            bound = Math.min(bound, metered.get());
        }
        int work = 0;
        final InboundRings inbound = parts.inbound();
        for (int ring = inbound.next(bound); ring >= 0; ring = inbound.next(bound)) {
            final int entry = inbound.take(ring);
            parts.lag(now, pool.queuedPicos(PortHandoff.handle(entry)));
            inbound.queue(entry, parts.catchUp());
            work++;
        }
        final long upTo = Math.min(now, bound == Long.MIN_VALUE ? bound : bound - 1);
        if (upTo == Long.MIN_VALUE) {
            return work;
        }
        work += parts.catchUp().advanceTo(upTo);
        // Every recirculation port has started what it would by upTo: a NOTIFY still to come is due lookahead later.
        notifiesBefore.set(upTo + 1 + lookahead);
        parts.doneThrough().set(upTo);
        return work;
    }

    /** Nothing waits on a link: the generator hands each packet in when the order may take it. */
    @Override
    public long nextArrivalPicos() {
        return Long.MAX_VALUE;
    }

    /** Its one queue holds every port's arrivals. */
    @Override
    public void addPort(final int port) {
    }

    @Override
    public void drainWaiting(final IntConsumer inFlight) {
        while (!inOrder.isEmpty()) {
            inFlight.accept(inOrder.removeHead());
        }
    }

    @Override
    public void reset() {
        meteredBefore.set(Long.MIN_VALUE);
        notifiesBefore.set(Long.MIN_VALUE);
    }
}
