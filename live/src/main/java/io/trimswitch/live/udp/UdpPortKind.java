package io.trimswitch.live.udp;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.live.port.SocketAddresses;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PortKind;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.sockets.VxlanPorts;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * A shard's UDP/VXLAN ports. One event loop, driven by the shard's turns, binds the sockets on the first turns and then
 * reads their datagrams on every turn into the shard's burst, each frame copied once into a buffer of the shard's
 * partition (frames read before the switch has started wait on their links). Netty hands over what a socket holds
 * whatever the burst's room: a frame past it is counted as {@code rxOverflow}. A frame to send is
 * copied into its port's next datagram, one flush per socket and turn, and its buffer goes back at once. A tunnel completes no checksum that an interface's host left to offload: the switch does it
 * here, unless the frame was trimmed (the trimmer made its checksums whole).
 */
final class UdpPortKind implements PortKind, LivePortKind.ShardPorts, VxlanPorts.FrameHandler {
    private final VxlanPorts sockets;
    private final List<VxlanPorts.Endpoint> endpoints;
    private final IntSupplier allocate;
    private final PacketPool pool;
    private final ShardedDataplane dataplane;
    /** The shard's ports' own counters, where a frame whose checksum cannot be completed is counted. */
    private final LivePortCounters[] counters;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports too). */
    private final boolean offloadHeaders;
    /** Where the sockets' descriptors go once bound: the shard's sleep. */
    private FileDescriptorWatch watch;
    /** The shard's burst, while a poll reads into it. */
    private Burst burst;

    /** @param segmentedSends {@code realtime.udpGso}: datagrams of one size in a row go as one UDP GSO send */
    UdpPortKind(final List<VxlanPorts.Endpoint> endpoints, final boolean segmentedSends, final LivePortKind.Context context) {
        this.endpoints = List.copyOf(endpoints);
        this.allocate = context.allocate();
        this.dataplane = context.dataplane();
        this.pool = dataplane.pool();
        this.counters = context.counters();
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
        this.sockets = new VxlanPorts(endpoints, this, segmentedSends, context.registry(), context.writer());
    }

    @Override
    public PortKind kind() {
        return this;
    }

    @Override
    public int[] ports() {
        return endpoints.stream().mapToInt(VxlanPorts.Endpoint::port).toArray();
    }

    /**
     * The sockets' loop: it binds them on the shard's first turns, before the switch has started, and reads what came
     * into {@code into}.
     */
    @Override
    public int poll(final Burst into) {
        this.burst = into;
        try {
            return sockets.poll();
        } finally {
            this.burst = null;
        }
    }

    /** What came was read by {@link #poll}, on this turn already. */
    @Override
    public int receive(final Burst into) {
        return 0;
    }

    /** From the loop, within {@link #poll}: the frame is copied into a buffer of the shard's and described in its burst. */
    @Override
    public void onFrame(final int port, final UnsafeBuffer buffer, final int offset, final int length) {
        if (burst == null || burst.room() == 0) {
            counters[port].drop(DropReason.RX_OVERFLOW);
            return;
        }
        final int handle = allocate.getAsInt();
        if (handle != PacketPool.NO_PACKET) {
            final UnsafeBuffer frame = pool.buffer(handle);
            final int at = pool.offset(handle);
            if (offloadHeaders) {
                // A tunnel's frame carries no offload header: a plain one, as interface ports' frames have theirs.
                OffloadHeader.clear(frame, at - OffloadHeader.LENGTH);
            }
            frame.putBytes(at, buffer, offset, length);
            pool.length(handle, length);
        }
        burst.add(port, handle);
    }

    @Override
    public void onBatchEnd() {
    }

    @Override
    public void send(final int port, final int handle, final long time) {
        final UnsafeBuffer frame = pool.buffer(handle);
        final int at = pool.offset(handle);
        if (!offloadHeaders || pool.trimKind(handle) != TrimKind.NONE
            || OffloadHeader.completeChecksum(frame, at - OffloadHeader.LENGTH, at, pool.length(handle))) {
            sockets.send(port, frame, at, pool.length(handle));
        } else {
            counters[port].drop(DropReason.BAD_OFFLOAD);
        }
        dataplane.release(handle);
    }

    @Override
    public void watchFileDescriptors(final FileDescriptorWatch where) {
        this.watch = where;
    }

    @Override
    public void flush() {
        sockets.flush();
    }

    @Override
    public boolean hasUnsent() {
        return sockets.hasUnsent();
    }

    /** Bound by the shard's own turns, on the loop it drives. */
    @Override
    public void startingOn(final Thread thread) {
        sockets.bind(thread);
    }

    /** The sockets are bound (their thread bound them on its first turns): each wakes the shard from now on. */
    @Override
    public void awaitReady() {
        for (final int fd : sockets.awaitBound()) {
            watch.add(fd, false);
        }
    }

    /** The sockets close on the thread that drives their loop, with its last turn. */
    @Override
    public void close() {
        sockets.close();
    }

    /** A thread that never ran closes no sockets of its own. */
    @Override
    public void closeUnrun() {
        sockets.close();
    }

    @Override
    public InetSocketAddress localAddress(final int port) {
        return sockets.localAddress(port);
    }

    @Override
    public String attachment(final int port) {
        return SocketAddresses.text(localAddress(port)) + " vni " + endpoint(port).vni();
    }

    @Override
    public String describe(final int port) {
        final VxlanPorts.Endpoint endpoint = endpoint(port);
        return "udp " + attachment(port) + ", host " + (endpoint.remote() == null
            ? "learned from its first datagram (sent to port " + endpoint.remotePort() + ")" : SocketAddresses.text(endpoint.remote()));
    }

    private VxlanPorts.Endpoint endpoint(final int port) {
        return endpoints.stream().filter(endpoint -> endpoint.port() == port).findFirst().orElseThrow();
    }
}
