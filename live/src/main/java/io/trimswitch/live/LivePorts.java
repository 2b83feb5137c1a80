package io.trimswitch.live;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.PortPoller;
import io.trimswitch.sockets.VxlanPorts;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardPorts;
import io.trimswitch.realtime.shard.ShardedDataplane;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A live shard's ports: AF_PACKET interfaces and UDP/VXLAN sockets. Each frame read is copied once into a buffer of
 * the shard's partition and arrives no faster than the port's link allows; the pipeline chooses its port (with
 * {@code forwarding.mode: l2} the shard's copy of the learning bridge, which floods too). What leaves the shard's
 * egress ports is sent straight from its buffer, one flush per turn. The shard sleeps in this {@link PortPoller}, over the ports' fds.
 */
final class LivePorts implements ShardPorts, VxlanPorts.FrameHandler, InterfacePorts.FrameHandler {
    /** Why the ports themselves drop a frame they took. */
    private static final List<DropReason> DROPS = List.of(DropReason.BUFFER_EXHAUSTED, DropReason.RX_OVERFLOW,
        DropReason.BAD_OFFLOAD, DropReason.RESERVED_GROUP);

    private final PipelineShard shard;
    private final String writer;
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final ShardedDataplane dataplane;
    private final IngressLinks links;
    /** Null unless the switch bridges: what the other shards' copies of the bridge learned, taken in each turn. */
    private final BridgeNews news;
    /** Per port: frames dropped by reason; this thread alone writes them. */
    private final LivePortCounters[] counters;
    /** Captures and queue-depth records: what the ports show without changing it. */
    private final PortTap tap;
    /** Where the shard sleeps, and what other threads write to wake it. */
    private final PortPoller poller = new PortPoller();
    /** Null unless some of these ports are UDP sockets: their loop runs on every turn. */
    private VxlanPorts sockets;
    /** Null unless some of these ports sit on Linux interfaces. */
    private InterfacePorts interfaces;
    /** Per port of this shard: its kind, which sends what left its egress port. */
    private final PortKind[] kindOf;
    /** The kinds this shard has, each flushed once a turn. */
    private PortKind[] kinds = new PortKind[0];
    /** The kind of its interface ports, which {@code ctl add-port} adds to; null without interface ports. */
    private PortKind interfaceKind;
    /** Per port: true when it sits on a Linux interface, whose frames carry an offload header in the pool's headroom. */
    private final boolean[] onInterface;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports). */
    private final boolean offloadHeaders;

    LivePorts(
        final PipelineShard shard, final ShardedDataplane dataplane, final IngressLinks links, final BridgeNews news) {
        this.shard = shard;
        this.writer = shard.roleName();
        this.dataplane = dataplane;
        this.assembly = dataplane.assembly();
        this.pool = dataplane.pool();
        this.links = links;
        this.news = news;
        final int ports = assembly.ports();
        this.counters = new LivePortCounters[ports];
        this.tap = new PortTap(assembly, pool);
        for (final int port : shard.ownPorts()) {
            makeRoom(port);
        }
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
        this.onInterface = new boolean[ports];
        this.kindOf = new PortKind[ports];
    }

    /** A port's counters and its queues' depth records. */
    private void makeRoom(final int port) {
        counters[port] = new LivePortCounters(assembly.counters(), writer, port, List.of(), DROPS);
        tap.watch(port);
    }

    /** The shard's UDP ports and its interface ports (null for none of either). */
    void sockets(final VxlanPorts ports, final InterfacePorts interfacePorts) {
        this.sockets = ports;
        this.interfaces = interfacePorts;
        final java.util.List<PortKind> own = new java.util.ArrayList<>();
        if (ports != null) {
            final PortKind udp = new SocketPortKind(ports, dataplane, counters);
            own.add(udp);
            for (final VxlanPorts.Endpoint endpoint : ports.endpoints()) {
                kindOf[endpoint.port()] = udp;
            }
        }
        if (interfacePorts != null) {
            interfaceKind = new InterfacePortKind(interfacePorts);
            own.add(interfaceKind);
            interfacePorts.wakeOnFrames(poller);
            for (final InterfacePorts.Attachment attachment : interfacePorts.attachments()) {
                onInterface[attachment.port()] = true;
                kindOf[attachment.port()] = interfaceKind;
            }
        }
        this.kinds = own.toArray(PortKind[]::new);
    }

    /**
     * On the shard's thread: takes interface port {@code port}, of one of its pipelines, which the switch did not start
     * with, and attaches it to {@code interfaceName}.
     */
    void adopt(final int port, final String interfaceName) {
        // Once only: a change that timed out for its caller still runs, and the caller may ask again.
        if (shard.owns(port)) {
            return;
        }
        makeRoom(port);
        onInterface[port] = true;
        kindOf[port] = interfaceKind;
        shard.addPort(port);
        interfaces.adopt(port, interfaceName);
    }

    /** On the shard's thread: port {@code port}'s frames go to {@code capture} too (null: to none). */
    void capture(final int port, final LiveCapture capture) {
        tap.capture(port, capture);
    }

    /** UDP sockets are read on every turn, so their binding too happens at the shard's first turns. */
    @Override
    public int poll() {
        return sockets == null ? 0 : sockets.poll();
    }

    @Override
    public int receive() {
        int work = interfaces == null ? 0 : interfaces.receive();
        if (news != null) {
            work += news.drain(dataplane.clock().nowPicos() / 1000);
        }
        return work;
    }

    /** A frame read later arrives later: egress may go up to now. */
    @Override
    public long horizon(final long now) {
        return now;
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
        final long arrival = links.arrival(port, length, now);
        // Its port is the pipeline's to choose.
        admit(port, buffer, offset, length, -1, arrival);
    }

    /** Copies the frame into a buffer of the shard's own and lets it wait for its arrival time. */
    private void admit(final int port, final DirectBuffer buffer, final int offset, final int length, final int egress, final long arrival) {
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
        pool.egressPort(handle, egress);
        shard.arrive(port, handle, arrival);
    }

    @Override
    public void onBatchEnd() {
    }

    /** The packet has left its port: the port's kind sends it with this turn's flush. */
    @Override
    public void departed(final int port, final int handle, final long time) {
        tap.departed(port, handle, time);
        kindOf[port].send(port, handle);
    }

    /** The interface refused the frame after its egress port counted it as sent: it is counted only as the interface's drop. */
    @Override
    public void onRefused(final int port, final int handle) {
        assembly.port(port).counters().transmissionRefused(pool.length(handle), pool.trimKind(handle) != TrimKind.NONE);
    }

    /** Sends what this turn's egress gave the ports. */
    @Override
    public void flush() {
        for (final PortKind kind : kinds) {
            kind.flush();
        }
    }

    @Override
    public boolean hasUnsent() {
        for (final PortKind kind : kinds) {
            if (kind.hasUnsent()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void await(final long nanos) {
        poller.await(nanos == PipelineShard.UNTIL_WOKEN ? PortPoller.FOREVER : nanos);
    }

    @Override
    public void wake() {
        poller.wake();
    }

    /** After the shard's last turn: each kind closes what its thread must (the UDP sockets). */
    @Override
    public void close() {
        for (final PortKind kind : kinds) {
            kind.close();
        }
    }

    /** Once the thread has ended. */
    void closePoller() {
        poller.close();
    }

    PortPoller poller() {
        return poller;
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    Histogram depths(final int port, final boolean data) {
        return tap.depths(port, data);
    }

    /** The same at {@code percentiles}, into {@code values}; false when no packet departed since the last call. */
    boolean depthsAt(final int port, final boolean data, final double[] percentiles, final long[] values) {
        return tap.depthsAt(port, data, percentiles, values);
    }
}
