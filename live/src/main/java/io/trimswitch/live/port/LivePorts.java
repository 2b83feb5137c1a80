package io.trimswitch.live.port;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.QueueReader;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.PortList;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.capture.LiveTap;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A live shard's ports: the kinds it holds ({@link InterfacePortKind} for ports on interfaces, a {@link LivePortKind}'s
 * for UDP/VXLAN sockets) in its {@link PortList}, with a {@link LiveTap} on them, and the way in that both kinds hand
 * their frames to: each frame read is copied once into a buffer of the shard's partition and arrives no faster than the
 * port's link allows; the pipeline chooses its port (with {@code forwarding.mode: l2} by
 * the shard's copy of the learning bridge, which floods too). The shard sleeps in a {@link PollerSleep}, over the kinds' file descriptors.
 */
public final class LivePorts implements LivePortKind.Frames, InterfacePorts.FrameHandler {
    /** Why the ports themselves drop a frame they took. */
    private static final List<DropReason> DROPS = List.of(DropReason.BUFFER_EXHAUSTED, DropReason.RX_OVERFLOW,
        DropReason.BAD_OFFLOAD, DropReason.RESERVED_GROUP);

    private final PipelineShard shard;
    private final String writer;
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final ShardedDataplane dataplane;
    private final IngressLinks links;
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
    /** Per port: true when it sits on a Linux interface, whose frames carry an offload header in the pool's headroom. */
    private final boolean[] onInterface;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports). */
    private final boolean offloadHeaders;

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
        this.list = new PortList(ports, sleep).tap(tap);
        shard.ports(list);
        for (final int port : shard.ownPorts()) {
            makeRoom(port);
        }
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
        this.onInterface = new boolean[ports];
    }

    /** A port's counters and its queues' depth records. */
    private void makeRoom(final int port) {
        counters[port] = new LivePortCounters(assembly.counters(), writer, port, List.of(), DROPS);
        tap.watch(port);
    }

    /** What the shard gives its ports of a {@link LivePortKind}, whose own counters {@code writer} writes in {@code registry}. */
    public LivePortKind.Context context(final CounterRegistry registry, final String writer) {
        return new LivePortKind.Context(dataplane, this, counters, registry, writer);
    }

    /** The shard's UDP ports and its interface ports (null for none of either). */
    public void sockets(final LivePortKind.ShardPorts ports, final InterfacePorts interfacePorts) {
        this.interfaces = interfacePorts;
        if (ports != null) {
            list.add(ports.kind(), ports.ports());
        }
        if (interfacePorts != null) {
            interfaceKind = new InterfacePortKind(interfacePorts);
            final int[] attached = interfacePorts.attachments().stream().mapToInt(InterfacePorts.Attachment::port).toArray();
            for (final int port : attached) {
                onInterface[port] = true;
            }
            list.add(interfaceKind, attached);
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
        onInterface[port] = true;
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
        onInterface[port] = true;
        shard.receiveFor(port);
        reader.handTo(this);
        list.add(new QueueReaderKind(reader));
    }

    /** On the shard's thread: port {@code port}'s frames go to {@code capture} too (null: to none). */
    public void capture(final int port, final LiveCapture capture) {
        tap.capture(port, capture);
    }

    @Override
    public void onFrame(final int port, final UnsafeBuffer buffer, final int offset, final int length) {
        final long now = dataplane.clock().nowPicos();
        // A capture sees every frame the port received, those the switch then refuses too, as tcpdump on the link would.
        tap.received(port, now, buffer, offset, length);
        if (length >= EthernetHeader.LENGTH && EthernetHeader.isReservedGroup(EthernetHeader.destination(buffer, offset))) {
            // Whatever the forwarding mode: such a frame is for the link it came on, never for another port.
            counters[port].drop(DropReason.RESERVED_GROUP);
            return;
        }
        admit(port, buffer, offset, length, links.arrival(port, length, now));
    }

    /** Copies the frame into a buffer of the shard's own and lets it wait for its arrival time. */
    private void admit(final int port, final DirectBuffer buffer, final int offset, final int length, final long arrival) {
        if (!shard.hasRoom(port)) {
            counters[port].drop(DropReason.RX_OVERFLOW);
            return;
        }
        final int handle = shard.allocate();
        if (handle == PacketPool.NO_PACKET) {
            counters[port].drop(DropReason.BUFFER_EXHAUSTED);
            return;
        }
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        if (!offloadHeaders) {
            frames.putBytes(at, buffer, offset, length);
        } else if (onInterface[port]) {
            frames.putBytes(at - OffloadHeader.LENGTH, buffer, offset - OffloadHeader.LENGTH, length + OffloadHeader.LENGTH);
        } else {
            OffloadHeader.clear(frames, at - OffloadHeader.LENGTH);
            frames.putBytes(at, buffer, offset, length);
        }
        pool.length(handle, length);
        pool.ingressPort(handle, port);
        // No port yet: the pipeline's forwarding chooses it.
        pool.egressPort(handle, -1);
        shard.arrive(port, handle, arrival);
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
