package io.trimswitch.live.port;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.QueueReader;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.realtime.shard.Ingress;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.PortList;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.capture.LiveTap;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A live shard's ports: the kinds it holds ({@link InterfacePortKind} for ports on interfaces, a {@link LivePortKind}'s
 * for UDP/VXLAN sockets) in its {@link PortList}, with a {@link LiveTap} on them, and the shard's way in for the bursts
 * both kinds receive ({@link Ingress}): each kind has copied each frame once into a buffer of the shard's partition,
 * and each frame arrives when the kernel received it where the kind can tell ({@link FrameArrival}), and no faster than
 * the port's link allows; the pipeline chooses its port (with
 * {@code forwarding.mode: l2} by the shard's copy of the learning bridge, which floods too). The shard sleeps in a
 * {@link PollerSleep}, over the kinds' file descriptors.
 */
public final class LivePorts implements Ingress, InterfacePorts.Refusals {
    /** Why the ports themselves drop a frame they took. */
    private static final List<DropReason> DROPS = List.of(DropReason.BUFFER_EXHAUSTED, DropReason.RX_OVERFLOW,
        DropReason.BAD_OFFLOAD, DropReason.RESERVED_GROUP);

    private final PipelineShard shard;
    private final String writer;
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final ShardedDataplane dataplane;
    private final IngressLinks links;
    /** The latest arrival handed to the shard ({@link #arrivedThrough}); MIN_VALUE: none yet. */
    private long arrivedThrough = Long.MIN_VALUE;
    /** Per port: frames dropped by reason; this thread alone writes them. */
    private final LivePortCounters[] counters;
    /** Captures and queue-depth records: what the ports show without changing it. */
    private final LiveTap tap;
    /** Where the shard sleeps, and what other threads write to wake it. */
    private final PollerSleep sleep = new PollerSleep();
    /** The shard's port kinds, which send what left its egress ports. */
    private final PortList list;
    /** Null unless some of these ports sit on Linux interfaces. */
    private InterfacePorts interfaces;
    /** The kind of its interface ports, which {@code ctl add-port} adds to; null without interface ports. */
    private InterfacePortKind interfaceKind;

    public LivePorts(
        final PipelineShard shard, final ShardedDataplane dataplane, final IngressLinks links) {
        this.shard = shard;
        this.writer = shard.roleName();
        this.dataplane = dataplane;
        this.assembly = dataplane.assembly();
        this.pool = dataplane.pool();
        this.links = links;
        final int ports = assembly.ports();
        this.counters = new LivePortCounters[ports];
        this.tap = new LiveTap(assembly, pool);
        this.list = new PortList(ports, sleep).tap(tap).ingress(this);
        shard.ports(list);
        for (final int port : shard.ownPorts()) {
            makeRoom(port);
        }
    }

    /** A port's counters and its queues' depth records. */
    private void makeRoom(final int port) {
        counters[port] = new LivePortCounters(assembly.counters(), writer, port, List.of(), DROPS);
        tap.watch(port);
    }

    /** What the shard gives its ports of a {@link LivePortKind}, whose own counters {@code writer} writes in {@code registry}. */
    public LivePortKind.Context context(final CounterRegistry registry, final String writer) {
        return new LivePortKind.Context(dataplane, shard::allocate, counters, registry, writer);
    }

    /** The shard's UDP ports and its interface ports (null for none of either). */
    public void sockets(final LivePortKind.ShardPorts ports, final InterfacePorts interfacePorts) {
        this.interfaces = interfacePorts;
        if (ports != null) {
            list.add(ports.kind(), ports.ports());
        }
        if (interfacePorts != null) {
            interfaceKind = new InterfacePortKind(interfacePorts, dataplane.clock(), this::arrivedThrough);
            list.add(interfaceKind, interfacePorts.attachments().stream().mapToInt(InterfacePorts.Attachment::port).toArray());
        }
    }

    /**
     * On the shard's thread: takes interface port {@code port}, of one of its pipelines, which the switch did not start
     * with, and attaches it to {@code interfaceName}.
     */
    public void adopt(final int port, final String interfaceName) {
        // Once only: a change that timed out for its caller still runs, and the caller may ask again.
        if (shard.owns(port)) {
            return;
        }
        makeRoom(port);
        list.assign(port, interfaceKind);
        shard.addPort(port);
        interfaces.adopt(port, interfaceName);
    }

    /**
     * Before the shard's thread starts: it reads {@code reader}'s receive queues of another shard's interface port too,
     * and meters their frames in its own pipeline like any arrival; the port's egress stays with its owner.
     */
    void readQueues(final QueueReader reader) {
        final int port = reader.port();
        makeRoom(port);
        shard.receiveFor(port);
        reader.bufferIn(pool, shard::allocate);
        list.add(new QueueReaderKind(reader, dataplane.clock(), this::arrivedThrough));
    }

    /** On the shard's thread: port {@code port}'s frames go to {@code capture} too (null: to none). */
    public void capture(final int port, final LiveCapture capture) {
        tap.capture(port, capture);
    }

    /**
     * Each frame of the burst, in its buffer of the shard's partition, waits for its arrival time at its port; one that
     * found no buffer, one for a reserved group, or one whose link backlog is full is counted and goes no further.
     */
    @Override
    public void admit(final Burst burst) {
        final long now = dataplane.clock().nowPicos();
        final long meteredThrough = shard.meteredThroughPicos();
        for (int i = 0; i < burst.size(); i++) {
            final int port = burst.port(i);
            final int handle = burst.handle(i);
            if (handle == PacketPool.NO_PACKET) {
                counters[port].drop(DropReason.BUFFER_EXHAUSTED);
                continue;
            }
            final UnsafeBuffer frame = pool.buffer(handle);
            final int at = pool.offset(handle);
            final int length = pool.length(handle);
            final long heard = FrameArrival.heard(burst.receivedNanos(i), dataplane.clock(), meteredThrough, now);
            // A capture sees every frame the port received, those the switch then refuses too, as tcpdump on the link would.
            tap.received(port, heard, frame, at, length);
            if (length >= EthernetHeader.LENGTH && EthernetHeader.isReservedGroup(EthernetHeader.destination(frame, at))) {
                // Whatever the forwarding mode: such a frame is for the link it came on, never for another port.
                drop(port, handle, DropReason.RESERVED_GROUP);
                continue;
            }
            final long arrival = links.arrival(port, length, heard);
            if (!shard.hasRoom(port)) {
                drop(port, handle, DropReason.RX_OVERFLOW);
                continue;
            }
            pool.ingressPort(handle, port);
            // No port yet: the pipeline's forwarding chooses it.
            pool.egressPort(handle, -1);
            arrivedThrough = Math.max(arrivedThrough, arrival);
            shard.arrive(port, handle, arrival);
        }
    }

    /** The latest arrival handed to the shard so far, on its thread: how far its interface kinds may let it go at least. */
    long arrivedThrough() {
        return arrivedThrough;
    }

    private void drop(final int port, final int handle, final DropReason reason) {
        counters[port].drop(reason);
        dataplane.release(handle);
    }

    /** The interface refused the frame after its egress port counted it as sent: it is counted only as the interface's drop. */
    @Override
    public void onRefused(final int port, final int handle) {
        assembly.port(port).counters().transmissionRefused(pool.length(handle), pool.trimKind(handle) != TrimKind.NONE);
    }

    /** Once the thread has ended (or never ran): the shard's epoll set and eventfd. */
    public void closePoller() {
        sleep.close();
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    public Histogram depths(final int port, final boolean data) {
        return tap.depths(port, data);
    }

    /** The same at {@code percentiles}, into {@code values}; false when no packet departed since the last call. */
    public boolean depthsAt(final int port, final boolean data, final double[] percentiles, final long[] values) {
        return tap.depthsAt(port, data, percentiles, values);
    }
}
