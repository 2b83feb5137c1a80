package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.ReturnToSender;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.packet.Trimmer;
import io.trimswitch.dataplane.util.Tunable;

/**
 * The central traffic manager: per egress port a data queue and a header queue. A packet meeting a
 * full data queue is dropped unless it is trimmable, in which case the mechanism's
 * {@link DataQueueOverflow} decides. Headers that meet a full header queue are returned to their
 * sender when that is enabled, else dropped and counted as trim drops. A pipeline's view that {@link #replicating}
 * also makes copies of a frame for the ports a flood goes to.
 */
public final class TrafficManager {
    /** Where a copy's buffer comes from: the partition of the thread that runs the pipeline. */
    @FunctionalInterface
    public interface BufferSource {
        /** A free buffer, or {@link PacketPool#NO_PACKET}. */
        int allocate();
    }

    private final PacketPool pool;
    private final EgressPort[] ports;
    /** Shared with every view of this traffic manager and the ingress pipelines: a running switch may change it. */
    private final Tunable<TrimSettings> trimSettings;
    private final boolean returnToSender;
    private final DataQueueOverflow overflow;
    private final TrafficManagerEvents events;
    /** The counters this instance writes: the ports' own in one thread, a thread's private set in real time. */
    private final PortCounters[] counters;
    private final boolean wakeUps;
    /** Null unless this view replicates: a switch that never floods has none. */
    private final PacketReplication replication;

    /** The traffic manager of one thread: it counts into the ports' own counters. */
    public TrafficManager(
        final PacketPool pool, final EgressPort[] ports, final TrimSettings trimSettings,
        final boolean returnToSender, final DataQueueOverflow overflow, final TrafficManagerEvents events) {
        this(pool, ports, new Tunable<>(trimSettings), returnToSender, overflow, events);
    }

    /** The traffic manager of one thread, trimming by {@code trimSettings} as a running switch changes them. */
    public TrafficManager(
        final PacketPool pool, final EgressPort[] ports, final Tunable<TrimSettings> trimSettings,
        final boolean returnToSender, final DataQueueOverflow overflow, final TrafficManagerEvents events) {
        this(pool, ports, trimSettings, returnToSender, overflow, events, portCounters(ports));
    }

    /**
     * One thread's entry into a traffic manager shared through its ports' rings: it counts into
     * {@code counters} (one per port), which only that thread writes.
     */
    public TrafficManager(
        final PacketPool pool, final EgressPort[] ports, final Tunable<TrimSettings> trimSettings,
        final boolean returnToSender, final DataQueueOverflow overflow, final TrafficManagerEvents events,
        final PortCounters[] counters) {
        this(pool, ports, trimSettings, returnToSender, overflow, events, counters, null);
    }

    private TrafficManager(
        final PacketPool pool, final EgressPort[] ports, final Tunable<TrimSettings> trimSettings,
        final boolean returnToSender, final DataQueueOverflow overflow, final TrafficManagerEvents events,
        final PortCounters[] counters, final PacketReplication replication) {
        if (counters.length != ports.length) {
            throw new IllegalArgumentException("one counter set per port: " + ports.length + ", got " + counters.length);
        }
        this.counters = counters;
        this.wakeUps = events.wantsWakeUps();
        this.pool = pool;
        this.ports = ports;
        this.trimSettings = trimSettings;
        this.returnToSender = returnToSender;
        this.overflow = overflow;
        this.events = events;
        this.replication = replication;
    }

    /**
     * The same traffic manager (ports, queues, overflow) as seen from another thread: its drops go to
     * {@code threadEvents} and it counts into fresh counters of its own, in the registry of the ports' counters,
     * labelled as written by {@code writer}.
     */
    public TrafficManager forThread(final TrafficManagerEvents threadEvents, final String writer) {
        final PortCounters[] own = new PortCounters[ports.length];
        for (int port = 0; port < own.length; port++) {
            own[port] = new PortCounters(ports[port].counters().registry(), port, writer);
        }
        return new TrafficManager(pool, ports, trimSettings, returnToSender, overflow, threadEvents, own);
    }

    /**
     * This traffic manager with the ports it queues into replaced by {@code view}, port for port: a thread
     * whose view holds a stand-in for another thread's port hands packets for that port over to it. It counts
     * into the same counters.
     */
    public TrafficManager withPorts(final EgressPort[] view) {
        if (view.length != ports.length) {
            throw new IllegalArgumentException("a view of " + ports.length + " ports, got " + view.length);
        }
        return new TrafficManager(pool, view.clone(), trimSettings, returnToSender, overflow, events, counters, replication);
    }

    /**
     * This view, replicating: copies of a flooded frame take their buffers from {@code buffers}, and what flooding does on
     * {@code ingressPorts} (the pipeline's ports) is counted in {@code registry}, labelled as written by {@code writer}.
     */
    public TrafficManager replicating(final BufferSource buffers, final CounterRegistry registry, final int[] ingressPorts, final String writer) {
        return new TrafficManager(pool, ports, trimSettings, returnToSender, overflow, events, counters,
            new PacketReplication(pool, buffers, registry, ports.length, ingressPorts, writer));
    }

    /** Whether this view can copy packets: without, a flood has nowhere to go. */
    public boolean replicates() {
        return replication != null;
    }

    /** A copy of packet {@code handle} for egress port {@code egress}, or {@link PacketPool#NO_PACKET}: dropped for want of a buffer, counted. */
    public int replicate(final int handle, final int egress) {
        return replication.copy(handle, egress);
    }

    /** Packet {@code handle} is flooded to {@code ports} ports: counted once as a frame and once per port, where it came in. */
    public void flooded(final int handle, final int ports) {
        replication.flooded(handle, ports);
    }

    /** Packet {@code handle} is for the port it came in on: dropped, counted there. */
    public void filter(final int handle, final long now) {
        replication.filtered(handle);
        pool.egressPort(handle, -1);
        events.drop(handle, DropReason.FILTERED, now);
    }

    private static PortCounters[] portCounters(final EgressPort[] ports) {
        final PortCounters[] counters = new PortCounters[ports.length];
        for (int port = 0; port < ports.length; port++) {
            counters[port] = ports[port].counters();
        }
        return counters;
    }

    /** A packet for its egress port's data queue. */
    public void enqueueData(final int handle, final long now) {
        final EgressPort port = ports[pool.egressPort(handle)];
        events.beforeEnqueue(port.id(), now);
        // Stamped before the offer: once queued, the packet may belong to another thread.
        pool.queuedPicos(handle, now);
        if (port.dataQueue(PacketClass.queue(pool.classification(handle))).offer(handle)) {
            wake(port, now);
        } else if (PacketClass.isTrimmable(pool.classification(handle))) {
            overflow.onDataQueueFull(this, handle, port, now);
        } else {
            drop(handle, DropReason.DATA_QUEUE_FULL, now);
        }
    }

    /** A trimmed header or a control packet for its egress port's high-priority header queue. */
    public void enqueueHeader(final int handle, final long now) {
        final EgressPort port = ports[pool.egressPort(handle)];
        events.beforeEnqueue(port.id(), now);
        pool.queuedPicos(handle, now);
        if (headerQueueOf(port, handle).offer(handle)) {
            wake(port, now);
            return;
        }
        if (returnToSender && !pool.returnedToSender(handle) && pool.ingressPort(handle) >= 0) {
            ReturnToSender.swapAddresses(pool.buffer(handle), pool.offset(handle), pool.classification(handle));
            pool.returnedToSender(handle, true);
            final EgressPort back = ports[pool.ingressPort(handle)];
            pool.egressPort(handle, back.id());
            events.beforeEnqueue(back.id(), now);
            if (headerQueueOf(back, handle).offer(handle)) {
                wake(back, now);
                return;
            }
        }
        if (pool.trimKind(handle) != TrimKind.NONE) {
            counters[pool.egressPort(handle)].droppedTrimmed();
        }
        drop(handle, DropReason.HEADER_QUEUE_FULL, now);
    }

    /** Where a header waits: the header queue, or for a trimmed packet the data queue the settings name for it. */
    private HandleQueue headerQueueOf(final EgressPort port, final int handle) {
        final int trimmedQueue = trimSettings.get().trimmedQueue();
        return trimmedQueue >= 0 && pool.trimKind(handle) != TrimKind.NONE ? port.dataQueue(trimmedQueue) : port.headerQueue();
    }

    /** Cuts the packet to its header in place and counts the trim against its egress port. */
    public void trim(final int handle, final byte trimKind) {
        Trimmer.trim(pool, handle, trimSettings.get());
        pool.trimKind(handle, trimKind);
        counters[pool.egressPort(handle)].trimmed(trimKind);
    }

    /** Puts a packet into a recirculation queue, dropping it with {@code overflowReason} when that is full. */
    public void recirculate(final int handle, final HandleQueue queue, final int pipeline, final DropReason overflowReason, final long now) {
        pool.queuedPicos(handle, now);
        if (queue.offer(handle)) {
            events.recirculationPending(pipeline, now);
        } else {
            if (pool.trimKind(handle) != TrimKind.NONE) {
                counters[pool.egressPort(handle)].droppedTrimmed();
            }
            drop(handle, overflowReason, now);
        }
    }

    public void drop(final int handle, final DropReason reason, final long now) {
        final int egress = pool.egressPort(handle);
        // A packet that never had an egress port (unparsable, no route, TTL expired) counts where it came in.
        final int port = egress >= 0 ? egress : pool.ingressPort(handle);
        if (port >= 0) {
            counters[port].dropped(reason);
        }
        events.drop(handle, reason, now);
    }

    private void wake(final EgressPort port, final long now) {
        if (wakeUps && port.isIdle()) {
            events.egressPending(port.id(), now);
        }
    }

    public PacketPool pool() {
        return pool;
    }

    /** The counters this instance writes for port {@code id}. */
    public PortCounters counters(final int id) {
        return counters[id];
    }

    public EgressPort port(final int id) {
        return ports[id];
    }

    public int portCount() {
        return ports.length;
    }

    public DataQueueOverflow overflow() {
        return overflow;
    }

    public void reset() {
        for (final EgressPort port : ports) {
            port.reset();
        }
        for (final PortCounters portCounters : counters) {
            portCounters.reset();
        }
        overflow.reset();
    }
}
