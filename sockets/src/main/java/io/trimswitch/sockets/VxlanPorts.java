package io.trimswitch.sockets;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelFuture;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.SegmentedDatagramPacket;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Switch ports as UDP endpoints over Netty's epoll transport: a frame on a port is an Ethernet frame in
 * a UDP datagram behind a VXLAN header (RFC 7348), so a Linux host attaches with a vxlan interface whose
 * remote is the port's address. A group of ports lives on one thread, their shard's, which drives their Netty loop
 * itself ({@link #poll()}, a {@link ManualIoEventLoop}: no event loop thread of its own): each poll reads their
 * sockets in batches (recvmmsg) and hands each valid frame to the {@link FrameHandler} while Netty's buffer is still
 * held; the shard sends what it is given, flushing a batch at once (sendmmsg). A
 * datagram that is not a frame for this port, or that comes from another host than the port's, is
 * counted by reason and dropped.
 */
public final class VxlanPorts implements AutoCloseable {
    /** Largest frame a port carries (the switch's packet buffers are 2048 bytes). */
    public static final int MAX_FRAME = 2048;
    private static final int MAX_DATAGRAM = MAX_FRAME + VxlanHeader.LENGTH;
    private static final int DATAGRAMS_PER_READ = 32;
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;
    private static final int FLUSH_BATCH = 32;
    /** The kernel's limit on segments in one UDP GSO send, and a total that stays within one datagram. */
    private static final int MAX_SEGMENTS = 64;
    private static final int MAX_SEGMENTED_BYTES = 60_000;
    /**
     * Segments must each fit the path's MTU unfragmented: within a 1500-byte IPv4 packet, unless a send
     * shows that the path takes less.
     */
    private static final int STANDARD_MTU_DATAGRAM = 1500 - 20 - 8;
    /** Closing: the loop's turns, each waiting this long at most, until it has ended (bounded: a stopping switch must not hang). */
    private static final int CLOSING_TURNS = 200;
    private static final long CLOSING_TURN_NANOS = 10_000_000L;

    /**
     * One port: where it listens, its VNI, and its host's VTEP; a null {@code remote} is learned from the
     * first datagram (its source address, at {@code remotePort}).
     */
    public record Endpoint(int port, InetSocketAddress bind, InetSocketAddress remote, int remotePort, int vni) {
    }

    /** Where frames go, on the I/O thread. */
    public interface FrameHandler {
        /** A frame arrived on {@code port}; the bytes are valid only during the call. */
        void onFrame(int port, UnsafeBuffer buffer, int offset, int length);

        /** The I/O thread has handed over a batch; a good moment for housekeeping. */
        void onBatchEnd();
    }

    private final List<Endpoint> endpoints;
    private final FrameHandler handler;
    private final Channel[] channels;
    private final InetSocketAddress[] remotes;
    private final int[] unflushedCount;
    /** Per port: datagrams of one size gathered for one segmented send, their size and how many. */
    private final ByteBuf[] pending;
    private final int[] segmentSize;
    private final int[] segments;
    /** Per port: the largest datagram sent in segments; a larger one goes alone, and the kernel may fragment it. */
    private final int[] largestSegment;
    private final boolean segmented;
    private final SocketErrors errors;
    /** Why a port drops a datagram or a frame to send. */
    private static final List<DropReason> DROPS = List.of(DropReason.TOO_SHORT, DropReason.BAD_VXLAN_FLAGS, DropReason.WRONG_VNI,
        DropReason.WRONG_SOURCE, DropReason.OVERSIZE, DropReason.NO_REMOTE, DropReason.TX_BUSY, DropReason.SOCKET_ERROR);
    /** Per port: datagrams received, and dropped by reason; this port's thread alone writes them. */
    private final LivePortCounters[] counters;
    private final UnsafeBuffer txView = new UnsafeBuffer(0, 0);
    private final byte[] heapCopy = new byte[MAX_FRAME + VxlanHeader.LENGTH];
    private final UnsafeBuffer heapView = new UnsafeBuffer(heapCopy);
    private final Endpoint[] byPort;
    /** The ports' loop, driven by their shard's thread; null until {@link #bind}. */
    private volatile ManualIoEventLoop loop;
    private final ChannelFuture[] binding;

    /**
     * @param segmentedSends send datagrams of one size in a row as one UDP GSO send where the kernel offers it
     * @param registry       where the ports' counters live, written by the ports' thread, named {@code writer}
     */
    public VxlanPorts(final List<Endpoint> endpoints, final FrameHandler handler, final boolean segmentedSends,
        final CounterRegistry registry, final String writer) {
        this.endpoints = List.copyOf(endpoints);
        this.handler = handler;
        int ports = 0;
        for (final Endpoint endpoint : endpoints) {
            ports = Math.max(ports, endpoint.port() + 1);
        }
        this.channels = new Channel[ports];
        this.byPort = new Endpoint[ports];
        this.remotes = new InetSocketAddress[ports];
        this.unflushedCount = new int[ports];
        this.pending = new ByteBuf[ports];
        this.segmentSize = new int[ports];
        this.segments = new int[ports];
        this.largestSegment = new int[ports];
        this.errors = new SocketErrors(ports);
        java.util.Arrays.fill(largestSegment, STANDARD_MTU_DATAGRAM);
        this.segmented = segmentedSends && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
        this.counters = new LivePortCounters[ports];
        this.binding = new ChannelFuture[ports];
        for (final Endpoint endpoint : endpoints) {
            counters[endpoint.port()] = new LivePortCounters(registry, writer, endpoint.port(), List.of(CounterType.RX_DATAGRAMS), DROPS);
            remotes[endpoint.port()] = endpoint.remote();
            byPort[endpoint.port()] = endpoint;
        }
    }

    /**
     * Asks for every port to be bound on a loop that {@code owner} drives with {@link #poll()}; the binding happens at
     * its first polls, and {@link #awaitBound} waits for it.
     *
     * @throws IllegalStateException when the epoll transport is not available here
     */
    public void bind(final Thread owner) {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("the epoll transport is not available here: " + Epoll.unavailabilityCause());
        }
        loop = new ManualIoEventLoop(owner, EpollIoHandler.newFactory());
        for (final Endpoint endpoint : endpoints) {
            // One byte more than the largest datagram a port takes: the kernel cuts a longer one to this, and it is counted as oversize.
            final Bootstrap bootstrap = new Bootstrap().group(loop).channel(EpollDatagramChannel.class)
                .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM + 1)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator((MAX_DATAGRAM + 1) * DATAGRAMS_PER_READ))
                .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(SOCKET_BUFFER_BYTES / 4, SOCKET_BUFFER_BYTES))
                .handler(new VxlanReceiver(endpoint, handler, counters[endpoint.port()], remotes, errors, MAX_DATAGRAM));
            binding[endpoint.port()] = bootstrap.bind(endpoint.bind());
        }
    }

    /**
     * Waits until every port is bound by its thread's polls; returns their sockets' file descriptors, which wake the
     * thread when it sleeps.
     *
     * @throws IllegalStateException naming the port and address when one cannot be bound, or was not within 10 s
     */
    public int[] awaitBound() {
        final int[] fds = new int[endpoints.size()];
        for (int i = 0; i < fds.length; i++) {
            final Endpoint endpoint = endpoints.get(i);
            final ChannelFuture bound = binding[endpoint.port()];
            if (!bound.awaitUninterruptibly(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("port " + endpoint.port() + ": cannot bind " + endpoint.bind() + ": its thread did not bind it within 10 s");
            }
            if (!bound.isSuccess()) {
                throw new IllegalStateException("port " + endpoint.port() + ": cannot bind " + endpoint.bind() + ": " + bound.cause().getMessage(), bound.cause());
            }
            channels[endpoint.port()] = bound.channel();
            fds[i] = ((EpollDatagramChannel) bound.channel()).fd().intValue();
        }
        return fds;
    }

    /** On the ports' thread: reads what the sockets hold and runs the loop's tasks; how much that was. */
    public int poll() {
        return loop.runNow();
    }

    /** Whether a socket holds datagrams the kernel would not take yet: its thread must keep polling to send them. */
    public boolean hasUnsent() {
        for (final Channel channel : channels) {
            if (channel != null && !channel.isWritable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * On the ports' thread: sends a frame out of {@code port} to its host, to go with the next {@link #flush()}.
     * Datagrams of one size in a row go to the kernel as one segmented send (UDP GSO) where it is offered.
     * Returns false, counted, when the port has no host yet or its socket is backed up.
     */
    public boolean send(final int port, final DirectBuffer frame, final int offset, final int length) {
        final InetSocketAddress remote = remotes[port];
        final Channel channel = channels[port];
        if (remote == null || channel == null) {
            counters[port].drop(DropReason.NO_REMOTE);
            return false;
        }
        if (length > MAX_FRAME) {
            // A segmentation-offload frame from an interface port: a tunnel's datagram cannot carry it.
            counters[port].drop(DropReason.OVERSIZE);
            return false;
        }
        final int size = VxlanHeader.LENGTH + length;
        ByteBuf batch = pending[port];
        if (batch != null && (size != segmentSize[port] || segments[port] == MAX_SEGMENTS || batch.writableBytes() < size
            || size > largestSegment[port])) {
            emit(port);
            batch = null;
        }
        if (batch == null) {
            if (!channel.isWritable()) {
                // Send what is queued, then look again: only a socket the kernel cannot drain refuses.
                channel.flush();
                if (!channel.isWritable()) {
                    counters[port].drop(DropReason.TX_BUSY);
                    return false;
                }
            }
            batch = channel.alloc().directBuffer(segmented && size <= largestSegment[port] ? MAX_SEGMENTED_BYTES : size);
            pending[port] = batch;
            segmentSize[port] = size;
            segments[port] = 0;
        }
        final int at = batch.writerIndex();
        if (batch.hasMemoryAddress()) {
            txView.wrap(batch.memoryAddress() + at, size);
            VxlanHeader.write(txView, 0, byPort[port].vni());
            txView.putBytes(VxlanHeader.LENGTH, frame, offset, length);
            batch.writerIndex(at + size);
        } else {
            VxlanHeader.write(heapView, 0, byPort[port].vni());
            frame.getBytes(offset, heapCopy, VxlanHeader.LENGTH, length);
            batch.writeBytes(heapCopy, 0, size);
        }
        segments[port]++;
        if (!segmented || size > largestSegment[port]) {
            emit(port);
        }
        return true;
    }

    /** Hands the port's datagrams gathered so far to its channel, one segmented send if there are several. */
    private void emit(final int port) {
        final ByteBuf batch = pending[port];
        if (batch == null) {
            return;
        }
        pending[port] = null;
        final Channel channel = channels[port];
        final int count = segments[port];
        if (count == 1) {
            channel.write(new DatagramPacket(batch, remotes[port]), channel.voidPromise());
        } else {
            // A segmented send fails whole: each of its datagrams is counted, and a path that will not take
            // segments of this size (its MTU is smaller) gets no more of them.
            final int size = segmentSize[port];
            channel.write(new SegmentedDatagramPacket(batch, size, remotes[port])).addListener(future -> {
                if (!future.isSuccess()) {
                    counters[port].drop(DropReason.SOCKET_ERROR, count);
                    if (SocketErrors.tooLongForThePath(future.cause())) {
                        largestSegment[port] = Math.min(largestSegment[port], size - 1);
                    }
                    errors.reportOnce(port, future.cause());
                }
            });
        }
        if (++unflushedCount[port] == FLUSH_BATCH) {
            // One sendmmsg per batch; a long burst goes out batch by batch.
            channel.flush();
            unflushedCount[port] = 0;
        }
    }

    /** On the ports' thread: sends everything written since the last flush, a batch per port. */
    public void flush() {
        for (int port = 0; port < channels.length; port++) {
            emit(port);
            if (unflushedCount[port] > 0) {
                unflushedCount[port] = 0;
                channels[port].flush();
            }
        }
    }

    /** The address a port listens on (its actual port when it was bound to port 0). */
    public InetSocketAddress localAddress(final int port) {
        return (InetSocketAddress) channels[port].localAddress();
    }

    public long dropped(final int port, final DropReason reason) {
        return counters[port].dropped(reason);
    }

    public long receivedDatagrams(final int port) {
        return counters[port].get(CounterType.RX_DATAGRAMS);
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /**
     * Closes every socket. On the ports' thread (its last turn), which then runs the loop until it has ended; from
     * another thread when that thread never ran.
     */
    @Override
    public void close() {
        for (int port = 0; port < pending.length; port++) {
            if (pending[port] != null) {
                pending[port].release();
                pending[port] = null;
            }
        }
        final ManualIoEventLoop running = loop;
        loop = null;
        if (running == null) {
            return;
        }
        final boolean own = running.inEventLoop();
        for (int port = 0; port < channels.length; port++) {
            final Channel channel = channels[port] != null ? channels[port] : binding[port] == null ? null : binding[port].channel();
            if (channel != null) {
                channel.close();
            }
        }
        running.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        for (int turn = 0; own && !running.isTerminated() && turn < CLOSING_TURNS; turn++) {
            running.run(CLOSING_TURN_NANOS);
        }
    }
}
