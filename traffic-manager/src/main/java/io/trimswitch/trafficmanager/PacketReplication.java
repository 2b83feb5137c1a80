package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;

import java.util.List;

/**
 * The traffic manager's packet replication, as a Tofino's makes copies of a flooded frame: each copy a buffer of the
 * thread that runs the pipeline, the frame's bytes (the pool's headroom, where an interface frame's offload header sits,
 * included) and its metadata, for another egress port. Per ingress port it counts what flooding did there: the ports
 * flooded to, the frames flooded, those filtered, and the copies that found no buffer; one writer, the pipeline's thread.
 */
final class PacketReplication {
    private static final List<CounterType> METRICS = List.of(CounterType.FLOODED_PACKETS, CounterType.FLOODED_FRAMES);
    private static final List<DropReason> DROPS = List.of(DropReason.FILTERED, DropReason.BUFFER_EXHAUSTED);

    private final PacketPool pool;
    private final TrafficManager.BufferSource buffers;
    /** Per port of the switch: its counters when it is an ingress port of this pipeline (or floods through it), else null. */
    private final LivePortCounters[] counters;
    private final CounterRegistry registry;
    private final String writer;

    PacketReplication(final PacketPool pool, final TrafficManager.BufferSource buffers, final CounterRegistry registry, final int portCount,
        final int[] ingressPorts, final String writer) {
        this.pool = pool;
        this.buffers = buffers;
        this.counters = new LivePortCounters[portCount];
        this.registry = registry;
        this.writer = writer;
        for (final int port : ingressPorts) {
            counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        }
    }

    /** Frame {@code handle} goes to {@code ports} ports by flooding: copies made, and the frame counted once. */
    void flooded(final int handle, final int ports) {
        final LivePortCounters at = countersOf(pool.ingressPort(handle));
        at.add(CounterType.FLOODED_PACKETS, ports);
        at.increment(CounterType.FLOODED_FRAMES);
    }

    /** Frame {@code handle} had nowhere to go but where it came from. */
    void filtered(final int handle) {
        countersOf(pool.ingressPort(handle)).drop(DropReason.FILTERED);
    }

    /**
     * The counters of ingress port {@code port}: a port of another pipeline, one of whose receive queues this pipeline's
     * thread reads, gets its own here at its first flood, once.
     */
    private LivePortCounters countersOf(final int port) {
        if (counters[port] == null) {
            counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        }
        return counters[port];
    }

    /** A copy of {@code handle} for {@code egress}, or {@link PacketPool#NO_PACKET} (counted) when no buffer is free. */
    int copy(final int handle, final int egress) {
        final int copy = buffers.allocate();
        if (copy == PacketPool.NO_PACKET) {
            countersOf(pool.ingressPort(handle)).drop(DropReason.BUFFER_EXHAUSTED);
            return PacketPool.NO_PACKET;
        }
        final int headroom = pool.headroom();
        final int length = pool.length(handle);
        pool.buffer(copy).putBytes(pool.offset(copy) - headroom, pool.buffer(handle), pool.offset(handle) - headroom,
            headroom + Math.min(length, pool.storedBytes()));
        pool.length(copy, length);
        pool.ingressPort(copy, pool.ingressPort(handle));
        pool.egressPort(copy, egress);
        pool.flow(copy, pool.flow(handle));
        pool.sequence(copy, pool.sequence(handle));
        pool.classification(copy, pool.classification(handle));
        pool.arrivalPicos(copy, pool.arrivalPicos(handle));
        pool.arrivalOrder(copy, pool.arrivalOrder(handle));
        return copy;
    }
}
