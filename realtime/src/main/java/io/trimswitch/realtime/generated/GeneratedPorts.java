package io.trimswitch.realtime.generated;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.realtime.ScenarioPorts;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.realtime.shard.DilatedClock;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.PublishedTime;
import io.trimswitch.realtime.shard.PortTap;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.trafficmanager.HandleRing;

import java.util.function.IntConsumer;

/**
 * A scenario shard's in-memory ports, the kind of port generated traffic comes in on. On the first shard they are the
 * generator: each packet of the workload is written into a buffer of the shard's partition when its last bit is due, by
 * the dilated clock, and goes into the shard's burst if the shard owns its port, or on the receive ring of the shard
 * that does. On the other shards they read that ring into their burst. Each shard then takes its burst ({@link #admit}):
 * a generated packet is metered at once, or waits its turn where the shards keep virtual time's order. Whatever leaves an egress port is recorded for the receivers, and its buffer
 * given back. They have no file descriptor: the shard parks when idle.
 */
final class GeneratedPorts implements ScenarioPorts {
    private final PipelineShard shard;
    private final ShardedDataplane dataplane;
    private final PacketPool pool;
    private final DilatedClock clock;
    private final RunRecorder recorder;
    /** Null on the shards that only receive: the workload, and per shard the ring its ports' packets go on. */
    private final TrafficSource source;
    private final HandleRing[] rings;
    /** The ring this shard's packets come on, when another shard generates them. */
    private final HandleRing ring;
    private final int batch;
    /** Whether the shards keep virtual time's order: then this shard's own packets wait their turn too. */
    private final boolean ordered;
    /** Shared by every shard: the generator has handed on every arrival before this switch time. */
    private final PublishedTime generatedBefore;
    /** Read by a receiving shard before it drains its ring: every arrival before it is then in the shard. */
    private long receivedBefore;
    /** The generator's count of the packets it made: their order at one instant. */
    private long made;
    private final java.util.function.IntSupplier allocate;
    private long horizonPicos = Long.MIN_VALUE;
    private long maxLagPicos;
    /** Packets that left this shard's egress ports, on its thread. */
    private long departed;
    /** Published each turn for the thread that waits for the run to end: the source is done and every buffer is back. */
    private volatile boolean quiet;

    /**
     * @param source the workload on the generating shard, null on the others
     * @param rings  per shard, the ring its packets go on (null for the generating shard itself)
     * @param ring   this shard's own ring, null on the generating shard
     */
    GeneratedPorts(
        final PipelineShard shard, final ShardedDataplane dataplane, final RunRecorder recorder, final TrafficSource source,
        final HandleRing[] rings, final HandleRing ring, final int batch, final PublishedTime generatedBefore) {
        this.shard = shard;
        this.dataplane = dataplane;
        this.pool = dataplane.pool();
        this.clock = dataplane.clock();
        this.recorder = recorder;
        this.source = source;
        this.rings = rings;
        this.ring = ring;
        this.batch = batch;
        this.allocate = shard::allocate;
        this.ordered = dataplane.ownership().ordered();
        this.generatedBefore = generatedBefore;
    }

    /**
     * Each packet arrives at the time its source gave it ({@code pool.arrivalPicos}), whichever turn made it: a late
     * turn makes no burst of them.
     */
    @Override
    public boolean stampsArrivals() {
        return true;
    }

    @Override
    public int receive(final Burst burst) {
        return source != null ? generate(burst) : take(burst);
    }

    /** Writes up to a batch of due packets into {@code burst}, or hands each on to its port's shard; returns how many. */
    private int generate(final Burst burst) {
        final long now = clock.nowPicos();
        int work = 0;
        while (work < batch && burst.room() > 0 && source.nextTime() <= now) {
            final long due = source.nextTime();
            final int handle = TrafficSource.take(source, pool, allocate, recorder);
            work++;
            if (handle == PacketPool.NO_PACKET) {
                continue;
            }
            pool.arrivalPicos(handle, due);
            pool.arrivalOrder(handle, made++);
            maxLagPicos = Math.max(maxLagPicos, now - due);
            final int port = pool.ingressPort(handle);
            final PortTap tap = shard.ports().tap();
            if (tap != PortTap.NONE) {
                tap.received(port, due, pool.buffer(handle), pool.offset(handle), pool.length(handle));
            }
            final HandleRing other = rings[dataplane.shardOf(port)];
            if (other == null) {
                burst.add(port, handle);
            } else if (!other.offer(handle)) {
                recorder.dropped(pool.flow(handle), DropReason.RX_OVERFLOW);
                dataplane.release(handle);
            }
        }
        // Every arrival before the next one has been handed on.
        horizonPicos = source.nextTime() == Long.MAX_VALUE ? Long.MAX_VALUE : source.nextTime() - 1;
        generatedBefore.set(source.nextTime());
        quiet = source.nextTime() == Long.MAX_VALUE && shard.buffersInUse() == 0;
        return work;
    }

    /**
     * Takes what the generating shard put on this shard's ring into {@code burst}; each waits for its arrival time.
     * Ordered, it takes the whole ring, having read first how far the generator had got: every arrival before that is
     * then in the shard; a ring longer than the burst's room is taken over several turns, its horizon kept until then.
     */
    private int take(final Burst burst) {
        final long generated = ordered ? generatedBefore.get() : 0;
        int work = 0;
        while (ordered || work < batch) {
            if (burst.room() == 0) {
                return work;
            }
            final int handle = ring.poll();
            if (handle == PacketPool.NO_PACKET) {
                break;
            }
            burst.add(pool.ingressPort(handle), handle);
            work++;
        }
        if (ordered) {
            receivedBefore = generated;
        }
        return work;
    }

    /**
     * The shard's own generated packets are metered at once, one at a time in arrival order, so that the shard meets its
     * queues in virtual time's order; those another shard made, or all of them where the shards keep virtual time's
     * order, wait for their arrival time (metered in their turn, once no NOTIFY can still come from before them).
     */
    @Override
    public void admit(final Burst burst) {
        final boolean meterAtOnce = source != null && !ordered;
        for (int i = 0; i < burst.size(); i++) {
            if (meterAtOnce) {
                shard.meter(burst.handle(i));
            } else {
                arriveHere(burst.port(i), burst.handle(i));
            }
        }
    }

    /** Packet {@code handle} waits at its port for its arrival time, or is dropped where its link is full. */
    private void arriveHere(final int port, final int handle) {
        if (shard.hasRoom(port)) {
            shard.arrive(port, handle, pool.arrivalPicos(handle));
        } else {
            recorder.dropped(pool.flow(handle), DropReason.RX_OVERFLOW);
            dataplane.release(handle);
        }
    }

    @Override
    public long horizon(final long now) {
        if (source != null) {
            return horizonPicos;
        }
        return !ordered ? now : receivedBefore == Long.MAX_VALUE ? Long.MAX_VALUE : receivedBefore - 1;
    }

    /** A sent packet is recorded for the receivers at the time it left, and its buffer given back. */
    @Override
    public void send(final int port, final int handle, final long time) {
        recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), time);
        dataplane.release(handle);
        departed++;
    }

    @Override
    public boolean quiet() {
        return quiet;
    }

    @Override
    public long departed() {
        return departed;
    }

    @Override
    public long maxLagPicos() {
        return maxLagPicos;
    }

    /** What the generating shard put on this shard's ring and it did not take. */
    @Override
    public void drainTo(final IntConsumer inFlight) {
        for (int handle = ring == null ? PacketPool.NO_PACKET : ring.poll(); handle != PacketPool.NO_PACKET; handle = ring.poll()) {
            inFlight.accept(handle);
        }
    }

    @Override
    public void reset() {
        maxLagPicos = 0;
        departed = 0;
        quiet = false;
        horizonPicos = Long.MIN_VALUE;
        receivedBefore = 0;
        made = 0;
        generatedBefore.set(0);
        if (ring != null) {
            ring.reset();
        }
    }
}
