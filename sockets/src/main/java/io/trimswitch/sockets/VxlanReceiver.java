package io.trimswitch.sockets;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * One UDP port's receive side, on its shard's thread: a datagram that is a frame of the port's own host and VNI goes on
 * as its frame while Netty's buffer is still held; anything else is counted by why and goes no further.
 */
final class VxlanReceiver extends SimpleChannelInboundHandler<DatagramPacket> {
    private final VxlanPorts.Endpoint endpoint;
    private final int port;
    private final VxlanPorts.FrameHandler handler;
    private final LivePortCounters counters;
    /** Shared with the port's sender: the host learned here is where its frames go. */
    private final InetSocketAddress[] remotes;
    private final SocketErrors errors;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final byte[] heapCopy;

    VxlanReceiver(final VxlanPorts.Endpoint endpoint, final VxlanPorts.FrameHandler handler, final LivePortCounters counters,
        final InetSocketAddress[] remotes, final SocketErrors errors, final int maxDatagram) {
        this.endpoint = endpoint;
        this.port = endpoint.port();
        this.handler = handler;
        this.counters = counters;
        this.remotes = remotes;
        this.errors = errors;
        this.heapCopy = new byte[maxDatagram];
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext context, final DatagramPacket packet) {
        counters.increment(CounterType.RX_DATAGRAMS);
        final ByteBuf content = packet.content();
        final int length = content.readableBytes();
        if (length < VxlanHeader.LENGTH + EthernetHeader.LENGTH) {
            counters.drop(DropReason.TOO_SHORT);
            return;
        }
        if (length > heapCopy.length) {
            counters.drop(DropReason.OVERSIZE);
            return;
        }
        if (content.hasMemoryAddress()) {
            view.wrap(content.memoryAddress() + content.readerIndex(), length);
        } else {
            content.getBytes(content.readerIndex(), heapCopy, 0, length);
            view.wrap(heapCopy, 0, length);
        }
        if ((VxlanHeader.flags(view, 0) & VxlanHeader.FLAG_VNI_VALID) == 0) {
            counters.drop(DropReason.BAD_VXLAN_FLAGS);
            return;
        }
        if (VxlanHeader.vni(view, 0) != endpoint.vni()) {
            counters.drop(DropReason.WRONG_VNI);
            return;
        }
        final InetAddress source = packet.sender().getAddress();
        final InetSocketAddress remote = remotes[port];
        if (remote == null) {
            // Learned once, from the first frame that passed the checks; it never moves after that.
            remotes[port] = new InetSocketAddress(source, endpoint.remotePort());
        } else if (!remote.getAddress().equals(source)) {
            // Only the port's host may speak on it: one datagram from elsewhere must not take the port over.
            counters.drop(DropReason.WRONG_SOURCE);
            return;
        }
        handler.onFrame(port, view, VxlanHeader.LENGTH, length - VxlanHeader.LENGTH);
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext context) {
        handler.onBatchEnd();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext context, final Throwable cause) {
        // A failed datagram (an ICMP unreachable from a host that went away) is not a reason to stop the port.
        counters.drop(DropReason.SOCKET_ERROR);
        errors.reportOnce(port, cause);
    }
}
