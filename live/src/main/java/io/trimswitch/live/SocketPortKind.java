package io.trimswitch.live;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PortKind;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.sockets.VxlanPorts;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A shard's UDP/VXLAN ports. One event loop, driven by the shard's turns, binds the sockets on the first turns and then
 * reads their datagrams on every turn (frames read before the switch has started wait on their links). A frame is
 * copied into its port's next datagram, one flush per socket and turn, and its buffer goes back at once. A tunnel completes no checksum that an interface's host left to offload: the switch does it
 * here, unless the frame was trimmed (the trimmer made its checksums whole).
 */
final class SocketPortKind implements PortKind {
    private final VxlanPorts sockets;
    private final PacketPool pool;
    private final ShardedDataplane dataplane;
    /** The shard's ports' own counters, where a frame whose checksum cannot be completed is counted. */
    private final LivePortCounters[] counters;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports too). */
    private final boolean offloadHeaders;
    /** Where the sockets' descriptors go once bound: the shard's sleep. */
    private FileDescriptorWatch watch;

    SocketPortKind(final VxlanPorts sockets, final ShardedDataplane dataplane, final LivePortCounters[] counters) {
        this.sockets = sockets;
        this.dataplane = dataplane;
        this.pool = dataplane.pool();
        this.counters = counters;
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
    }

    /** The sockets' loop: it binds them on the shard's first turns, before the switch has started, and reads what came. */
    @Override
    public int poll() {
        return sockets.poll();
    }

    /** What came was read by {@link #poll()}, on this turn already. */
    @Override
    public int receive() {
        return 0;
    }

    @Override
    public void send(final int port, final int handle, final long time) {
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        if (!offloadHeaders || pool.trimKind(handle) != TrimKind.NONE
            || OffloadHeader.completeChecksum(frames, at - OffloadHeader.LENGTH, at, pool.length(handle))) {
            sockets.send(port, frames, at, pool.length(handle));
        } else {
            counters[port].drop(DropReason.BAD_OFFLOAD);
        }
        dataplane.release(handle);
    }

    @Override
    public void watchFileDescriptors(final FileDescriptorWatch where) {
        this.watch = where;
    }

    /** The sockets are bound (their thread bound them on its first turns): each wakes the shard from now on. */
    void bound(final int[] fds) {
        for (final int fd : fds) {
            watch.add(fd, false);
        }
    }

    @Override
    public void flush() {
        sockets.flush();
    }

    @Override
    public boolean hasUnsent() {
        return sockets.hasUnsent();
    }

    /** The sockets close on the thread that drives their loop. */
    @Override
    public void close() {
        sockets.close();
    }
}
