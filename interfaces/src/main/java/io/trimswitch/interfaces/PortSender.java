package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One interface port's sending side, on the ports' thread: the frames gathered for this turn's sendmmsg, sent straight
 * from the packet pool's buffers (no copy), their buffers given back once the kernel has them; a frame the port cannot
 * send is counted under its reason.
 */
final class PortSender {
    /** Frames gathered per port before they go to the kernel in one sendmmsg. */
    private static final int SEND_BATCH = 64;
    private static final int VLAN_TAG = 4;

    private final int port;
    private final PacketPool pool;
    private final InterfacePorts.Refusals handler;
    private final InterfacePorts.Release release;
    private final LivePortCounters counters;
    private final LinuxCalls calls;
    /** Where a socket's pending error is read into. */
    private final MemorySegment errorScratch;
    /** The buffers waiting for this turn's sendmmsg, and their messages and iovecs in native memory. */
    private final int[] pending = new int[SEND_BATCH];
    private int pendingCount;
    private final UnsafeBuffer messages;

    PortSender(final int port, final PacketPool pool, final InterfacePorts.Refusals handler, final InterfacePorts.Release release,
        final LivePortCounters counters, final LinuxCalls calls, final MemorySegment errorScratch, final Arena arena) {
        this.port = port;
        this.pool = pool;
        this.handler = handler;
        this.release = release;
        this.counters = counters;
        this.calls = calls;
        this.errorScratch = errorScratch;
        // Each message has one iovec, which sits after all the messages.
        final MemorySegment segment = arena.allocate((long) SEND_BATCH * (LinuxCalls.MMSGHDR_BYTES + LinuxCalls.IOVEC_BYTES), 64);
        this.messages = new UnsafeBuffer(segment.address(), (int) segment.byteSize());
        for (int i = 0; i < SEND_BATCH; i++) {
            final int message = i * LinuxCalls.MMSGHDR_BYTES;
            messages.putLong(message + LinuxCalls.MSGHDR_IOV, messages.addressOffset() + iovec(i));
            messages.putLong(message + LinuxCalls.MSGHDR_IOVLEN, 1L);
        }
    }

    private static int iovec(final int message) {
        return SEND_BATCH * LinuxCalls.MMSGHDR_BYTES + message * LinuxCalls.IOVEC_BYTES;
    }

    /**
     * Gathers {@code handle}'s frame for {@code socket}'s next sendmmsg, which goes as the batch fills or with
     * {@link #flush}. A frame that the interface's MTU will not take is dropped, counted, at once.
     */
    void send(final PortSocket socket, final int handle) {
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int length = pool.length(handle);
        final int offload = frame - OffloadHeader.LENGTH;
        if (pool.trimKind(handle) != TrimKind.NONE) {
            // Cut to its headers, with its checksums made whole by the trimmer: nothing is left to segment or complete.
            OffloadHeader.clear(buffer, offload);
        }
        if ((OffloadHeader.gsoType(buffer, offload) == OffloadHeader.GSO_NONE || !socket.carriesOffload())
            && length > maxFrame(socket, buffer, frame, length)) {
            refuse(handle, DropReason.MTU_EXCEEDED);
            return;
        }
        final int at = pendingCount;
        messages.putLong(iovec(at), buffer.addressOffset() + offload);
        messages.putLong(iovec(at) + 8, (long) length + OffloadHeader.LENGTH);
        pending[at] = handle;
        pendingCount = at + 1;
        if (at + 1 == SEND_BATCH) {
            flush(socket);
        }
    }

    /** The longest plain frame the port's interface sends: its MTU, the Ethernet header, and a VLAN tag if the frame has one. */
    private static int maxFrame(final PortSocket socket, final UnsafeBuffer buffer, final int frame, final int length) {
        final boolean tagged = length >= EthernetHeader.LENGTH && EthernetHeader.etherType(buffer, frame) == EthernetHeader.ETHER_TYPE_VLAN;
        return Math.min(socket.longestFrame(), socket.mtu() + EthernetHeader.LENGTH + (tagged ? VLAN_TAG : 0));
    }

    /** Counts {@code handle}'s frame once, under {@code reason} alone, and gives its buffer back. */
    void refuse(final int handle, final DropReason reason) {
        counters.drop(reason);
        handler.onRefused(port, handle);
        release.release(handle);
    }

    /** The frames gathered from {@code from} on, refused under {@code reason}; none left gathered. */
    void refusePending(final int from, final DropReason reason) {
        for (int i = from; i < pendingCount; i++) {
            counters.drop(reason);
            handler.onRefused(port, pending[i]);
        }
        releasePending();
    }

    /** Gives back the buffers of every frame gathered, sent or not, but those the socket took to send from; none left gathered. */
    void releasePending() {
        for (int i = 0; i < pendingCount; i++) {
            if (messages.getLong(iovec(i)) != 0L) {
                release.release(pending[i]);
            }
        }
        pendingCount = 0;
    }

    boolean hasPending() {
        return pendingCount > 0;
    }

    /** Sends the gathered frames through {@code socket}, one sendmmsg as long as the kernel takes them all. */
    void flush(final PortSocket socket) {
        final int count = pendingCount;
        final int fd = socket.fd();
        int next = 0;
        boolean cleared = false;
        while (next < count) {
            final int sent = socket.send(calls, messages, next, count - next);
            if (sent > 0) {
                for (int i = next; i < next + sent; i++) {
                    counters.increment(CounterType.TX_FRAMES);
                    counters.add(CounterType.TX_SEGMENTS, segments(pending[i]));
                }
                next += sent;
                continue;
            }
            final int errno = -sent;
            if (errno == LinuxCalls.EINTR) {
                continue;
            }
            if (errno == LinuxCalls.ENETDOWN || errno == LinuxCalls.ENXIO || errno == LinuxCalls.ENODEV) {
                if (!cleared) {
                    // Perhaps only the error the link's last fall left pending on the socket: cleared, the frame goes.
                    cleared = true;
                    calls.clearError(fd, errorScratch);
                    continue;
                }
                // The link fell before its notification came: what is left goes the way of a down link.
                refusePending(next, DropReason.LINK_DOWN);
                return;
            }
            if (errno == LinuxCalls.EAGAIN || errno == LinuxCalls.ENOBUFS) {
                // The device's queue is full: what is left of this turn's frames is lost, as on a congested link.
                refusePending(next, DropReason.TX_BUSY);
                return;
            }
            // The kernel refused the frame at the head (a bad offload header, a frame the device will not take): skip it.
            counters.drop(DropReason.SOCKET_ERROR);
            handler.onRefused(port, pending[next]);
            next++;
        }
        releasePending();
    }

    private long segments(final int handle) {
        return OffloadHeader.segments(pool.buffer(handle), pool.offset(handle) - OffloadHeader.LENGTH, pool.length(handle));
    }
}
