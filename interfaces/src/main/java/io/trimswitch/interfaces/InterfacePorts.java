package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The switch ports of one pipeline thread that sit on Linux interfaces (veths, NICs), DPDK style: the thread takes
 * frames off each port's receive ring itself, without a system call, and sends what departed in one sendmmsg per port
 * and turn, straight from the packet pool's buffers (no copy), giving the buffers back once the kernel has them. A frame
 * keeps its offload header in the pool's headroom, so a 64 KB segmentation-offload frame crosses the switch whole.
 * A frame the switch cannot take or send is counted by reason.
 *
 * <p>The ports live with their links ({@link #follow}): each of the kernel's notifications, which a {@link LinkWatcher}
 * reads on its own thread, becomes a {@link LinkNews} handed to the ports' thread, which takes it up ({@link #take}).
 * A port whose link is down or whose interface is gone drops what it should send as {@code linkDown}; an interface made
 * again under the port's name is opened afresh (new index, new socket and ring); a new MTU is taken at once.
 */
public final class InterfacePorts implements AutoCloseable {
    /** Frames taken off one port's ring before the thread turns to its other work. */
    private static final int RECEIVE_BUDGET = 64;
    /** Frames gathered per port before they go to the kernel in one sendmmsg. */
    private static final int SEND_BATCH = 64;
    private static final int VLAN_TAG = 4;

    /** A port on an interface, read and sent through a socket of {@code kind} on its first {@code queues} receive queues. */
    public record Attachment(int port, String interfaceName, SocketKind kind, int queues) {
        public Attachment(final int port, final String interfaceName) {
            this(port, interfaceName, SocketKinds.named(SocketKinds.AF_PACKET), 1);
        }
    }

    /** Where frames go, on the ports' thread. */
    public interface FrameHandler {
        /** A frame arrived on {@code port}, its offload header just before it; the bytes are valid only during the call. */
        void onFrame(int port, UnsafeBuffer buffer, int offset, int length);

        /**
         * The port refused to send {@code handle}'s frame, which left its egress port and is now counted as dropped under
         * the port's reason: whatever counted it as sent takes that back. Called before the buffer is released.
         */
        default void onRefused(final int port, final int handle) {
        }
    }

    /**
     * What the kernel said of one port's link: its interface gone, or its index, whether it carries frames, and its MTU
     * (0: not said).
     */
    public record LinkNews(int port, String interfaceName, boolean gone, int index, boolean up, int mtu) {
    }

    /** Takes a packet buffer back once its frame is sent or dropped. */
    public interface Release {
        void release(int handle);
    }

    /** Frames and segments received and sent, and a gauge: 1 while the port's link can carry frames, 0 while it is down or its interface gone. */
    private static final List<CounterType> METRICS = List.of(CounterType.RX_DATAGRAMS, CounterType.RX_SEGMENTS, CounterType.TX_FRAMES,
        CounterType.TX_SEGMENTS, CounterType.LINK_UP);
    /**
     * Why a port does not take a frame or does not send one. Not ringOverflow: the kernel counts those
     * (PACKET_STATISTICS), {@link #dropped} reads them, and the switch's gauges alone write them to the counters.
     */
    private static final List<DropReason> DROPS = List.of(DropReason.TRUNCATED, DropReason.VLAN_TAGGED, DropReason.TOO_SHORT, DropReason.OVERSIZE,
        DropReason.MTU_EXCEEDED, DropReason.TX_BUSY, DropReason.SOCKET_ERROR, DropReason.LINK_DOWN, DropReason.PORT_REMOVED);
    private final List<Attachment> attachments;
    private final FrameHandler handler;
    private final PacketPool pool;
    private final Release release;
    private final Arena arena = Arena.ofShared();
    /** Set by {@link #close()}, after which the arena's memory is gone. */
    private volatile boolean closed;
    private final LinuxCalls calls = new LinuxCalls(arena);
    /** Indexed by switch port; null for ports that are not this thread's interfaces. */
    private final PortSocket[] sockets;
    /** Per port: the kind of socket it opens; a port added while running gets {@link #defaultKind}. */
    private final SocketKind[] kinds;
    /** Per port: the receive queues it reads (1 for a port added while running). */
    private final int[] queues;
    private SocketKind defaultKind = SocketKinds.named(SocketKinds.AF_PACKET);
    private final PortReceiver[] receivers;
    /** Per port: the buffers waiting for this turn's sendmmsg, and their messages and iovecs in native memory. */
    private final int[][] pending;
    private final int[] pendingCount;
    private final UnsafeBuffer[] messages;
    private final MemorySegment[] messageSegments;
    /** Per port: frames and segments received and sent, then frames refused by reason; this port's thread alone writes them. */
    private final LivePortCounters[] counters;
    /** The ports' thread alone changes it, as {@code ctl add-port} gives it one more ({@link #adopt}). */
    private int[] ownPorts;
    private final CounterRegistry registry;
    private final String writer;
    /** Where a frame too long for a ring slot is read, on the ports' thread. */
    private final UnsafeBuffer longFrame;
    /** Per port: ring drops read so far; written under this object's lock by whichever thread asks. */
    private final long[] ringDrops;
    /** errno for the readers of ring drops, who are not the ports' thread. */
    private final LinuxCalls readerCalls = new LinuxCalls(arena);
    /** Per port, on the ports' thread: whether its link carries frames now. */
    private final boolean[] linkUp;
    /** What wakes the ports' thread when a ring has a frame; null for a thread that never sleeps. */
    private Readiness poller;
    /** Where a socket's pending error is read into, on the ports' thread. */
    private final MemorySegment errorScratch = arena.allocate(8, 8);
    private Consumer<String> log = line -> { };
    /** Per port: the interface it sits on; the ports' thread changes it ({@code ctl add-port}), others read it. */
    private final AtomicReferenceArray<String> names;
    /** Per port, on the ports' thread: removed while running ({@code ctl del-port}), until added again. */
    private final boolean[] removed;
    /**
     * Per port: the interface the control thread opened for the port's next attachment ({@link #prepare}), until the
     * ports' thread takes it; an opened socket that no request takes is closed with the ports.
     */
    private final AtomicReferenceArray<Prepared> prepared;
    /** The control thread's calls, so that errno is never shared with the ports' thread. */
    private final LinuxCalls controlCalls = new LinuxCalls(arena);
    private LinkWatcher watcher;
    /** Hands each link's news to the ports' thread. */
    private Consumer<LinkNews> news = link -> { };
    private final LinkMessages.Listener[] listeners;

    /**
     * @param maxPorts the switch's ports at most: the room kept for ports given to it while it runs
     * @param registry where the ports' counters live, written by the ports' thread, named {@code writer}
     */
    public InterfacePorts(final List<Attachment> attachments, final int maxPorts, final FrameHandler handler, final PacketPool pool,
        final Release release, final CounterRegistry registry, final String writer) {
        if (pool.headroom() < OffloadHeader.LENGTH) {
            throw new IllegalArgumentException("interface ports need a pool with room for an offload header ahead of each frame");
        }
        this.attachments = List.copyOf(attachments);
        this.handler = handler;
        this.pool = pool;
        this.release = release;
        this.registry = registry;
        this.writer = writer;
        int ports = maxPorts;
        for (final Attachment attachment : attachments) {
            ports = Math.max(ports, attachment.port() + 1);
        }
        this.sockets = new PortSocket[ports];
        this.kinds = new SocketKind[ports];
        this.queues = new int[ports];
        Arrays.fill(queues, 1);
        this.receivers = new PortReceiver[ports];
        this.pending = new int[ports][];
        this.pendingCount = new int[ports];
        this.messages = new UnsafeBuffer[ports];
        this.messageSegments = new MemorySegment[ports];
        this.counters = new LivePortCounters[ports];
        this.ownPorts = attachments.stream().mapToInt(Attachment::port).toArray();
        this.ringDrops = new long[ports];
        this.linkUp = new boolean[ports];
        this.names = new AtomicReferenceArray<>(ports);
        for (final Attachment attachment : attachments) {
            names.set(attachment.port(), attachment.interfaceName());
            kinds[attachment.port()] = attachment.kind();
            queues[attachment.port()] = attachment.queues();
        }
        this.removed = new boolean[ports];
        this.prepared = new AtomicReferenceArray<>(ports);
        this.listeners = new LinkMessages.Listener[ports];
        final MemorySegment longFrameBytes = arena.allocate(PortSocket.LONG_FRAME_BYTES + 1, 64);
        this.longFrame = new UnsafeBuffer(longFrameBytes.address(), (int) longFrameBytes.byteSize());
        for (final int port : ownPorts) {
            counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        }
        for (final int port : ownPorts) {
            makeRoom(port);
        }
    }

    /** The port's receiver and its send batch's messages in native memory. */
    private void makeRoom(final int port) {
        receivers[port] = new PortReceiver(port);
        pending[port] = new int[SEND_BATCH];
        // Each message has one iovec, which sits after all the messages.
        messageSegments[port] = arena.allocate((long) SEND_BATCH * (LinuxCalls.MMSGHDR_BYTES + LinuxCalls.IOVEC_BYTES), 64);
        messages[port] = new UnsafeBuffer(messageSegments[port].address(), (int) messageSegments[port].byteSize());
        for (int i = 0; i < SEND_BATCH; i++) {
            final int message = i * LinuxCalls.MMSGHDR_BYTES;
            messages[port].putLong(message + LinuxCalls.MSGHDR_IOV, messages[port].addressOffset() + iovec(i));
            messages[port].putLong(message + LinuxCalls.MSGHDR_IOVLEN, 1L);
        }
    }

    private static int iovec(final int message) {
        return SEND_BATCH * LinuxCalls.MMSGHDR_BYTES + message * LinuxCalls.IOVEC_BYTES;
    }

    /**
     * Opens every port's interface.
     *
     * @throws IllegalStateException naming the port and interface, with the reason, when one cannot be opened
     */
    public void open() {
        for (final Attachment attachment : attachments) {
            try {
                sockets[attachment.port()] = attachment.kind().open(attachment.interfaceName(), calls, true, attachment.queues());
                registerForWakeUps(attachment.port());
                // Up until the kernel's first word on its carrier says otherwise.
                linkUp[attachment.port()] = true;
                counters[attachment.port()].set(CounterType.LINK_UP, 1);
            } catch (final IllegalStateException e) {
                close();
                throw new IllegalStateException("port " + attachment.port() + ": " + e.getMessage(), e);
            }
        }
    }

    /** What wakes the ports' thread when a packet socket has a frame (or a pending error): the set its thread sleeps on. */
    public interface Readiness {
        /** Wakes the thread when packet socket {@code fd} has a frame or an error; from any thread. */
        void watch(int fd);

        /** Stops watching {@code fd}, before it is closed. */
        void unwatch(int fd);
    }

    /**
     * Lets {@code poller} wake the ports' thread when a ring has a frame, for a thread that sleeps when idle; the frames
     * themselves are still taken by {@link #receive()}. The sockets of ports attached later are watched too.
     */
    public void wakeOnFrames(final Readiness poller) {
        this.poller = poller;
        for (final int port : ownPorts) {
            registerForWakeUps(port);
        }
    }

    private void registerForWakeUps(final int port) {
        if (poller != null && sockets[port] != null) {
            for (final int fd : sockets[port].wakeFds()) {
                poller.watch(fd);
            }
        }
    }

    /**
     * Lets the ports follow their links: {@code watcher} tells of each interface by its name, on its own thread;
     * {@code news} hands each word to the ports' thread, which takes it up ({@link #take}); {@code log} gets one line
     * per change the ports make.
     */
    public void follow(final LinkWatcher watcher, final Consumer<LinkNews> news, final Consumer<String> log) {
        this.log = log;
        this.watcher = watcher;
        this.news = news;
        for (final Attachment attachment : attachments) {
            final int port = attachment.port();
            listeners[port] = listenerFor(port);
            watcher.follow(attachment.interfaceName(), listeners[port]);
        }
    }

    private LinkMessages.Listener listenerFor(final int port) {
        // On the watcher's thread: the news goes to the ports' thread as it is; nothing of the ports is touched here.
        return link -> news.accept(new LinkNews(port, link.name(), link.deleted(), link.index(), link.carries(), link.deleted() ? 0 : link.mtu()));
    }

    /**
     * On the ports' thread: takes {@code port}, which the switch did not start with, and attaches it to
     * {@code interfaceName} ({@code ctl add-port}), or lets it wait for the interface as for one that went away. Its
     * counters are registered now; the switch's counters file has room for them.
     */
    public void adopt(final int port, final String interfaceName) {
        kinds[port] = defaultKind;
        counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        makeRoom(port);
        listeners[port] = listenerFor(port);
        ownPorts = Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        attachTo(port, interfaceName);
    }

    /** An interface opened, or found not to open yet, by the control thread, for one port's next attachment. */
    private record Prepared(String interfaceName, PortSocket socket, String failure) {
        void close() {
            if (socket != null) {
                socket.close();
            }
        }
    }

    /**
     * From the control thread, before it asks the ports' thread to attach {@code port} to {@code interfaceName}
     * ({@link #adopt}, {@link #request}): opens the interface and maps its ring here, which takes milliseconds that the
     * ports' thread would otherwise spend not forwarding; that thread then only registers the socket. An interface that
     * cannot be opened yet is noted, and the port waits for it.
     */
    public void prepare(final int port, final String interfaceName) {
        Prepared opened;
        synchronized (controlCalls) {
            if (closed) {
                return;
            }
            try {
                opened = new Prepared(interfaceName, kindOf(port).open(interfaceName, controlCalls, false, queues[port]), null);
            } catch (final IllegalStateException e) {
                opened = new Prepared(interfaceName, null, e.getMessage());
            }
        }
        final Prepared unclaimed = prepared.getAndSet(port, opened);
        if (unclaimed != null) {
            unclaimed.close();
        }
        if (closed) {
            // The ports closed meanwhile (the switch stopped): no one else will close it.
            final Prepared late = prepared.getAndSet(port, null);
            if (late != null) {
                late.close();
            }
        }
    }

    /**
     * On the ports' thread ({@code ctl del-port}): closes {@code port}'s socket and ring; what is queued for it or still
     * comes is dropped as {@code portRemoved} until it is attached again.
     */
    public void remove(final int port) {
        takeRequest(port, "");
    }

    /**
     * On the ports' thread ({@code ctl add-port}): attaches {@code port} to {@code interfaceName}, opened by
     * {@link #prepare} if the control thread did, or lets it wait for the interface as for one that went away.
     */
    public void attachTo(final int port, final String interfaceName) {
        takeRequest(port, interfaceName);
    }

    private void takeRequest(final int port, final String request) {
        final Prepared opened = prepared.getAndSet(port, null);
        if (opened != null && !opened.interfaceName().equals(request)) {
            opened.close();
        }
        takeRequest(port, request, opened != null && opened.interfaceName().equals(request) ? opened : null);
    }

    /** {@code opened}: the interface as the control thread opened it, or null when it did not; then it is opened here. */
    private void takeRequest(final int port, final String request, final Prepared opened) {
        final String prefix = "port " + port + " (" + names.get(port) + "): ";
        if (sockets[port] != null) {
            detach(port, request.isEmpty() ? DropReason.PORT_REMOVED : DropReason.LINK_DOWN);
        }
        if (request.isEmpty()) {
            removed[port] = true;
            log.accept(prefix + "removed");
            return;
        }
        removed[port] = false;
        names.set(port, request);
        final String now = "port " + port + " (" + request + "): ";
        if (watcher != null) {
            watcher.follow(request, listeners[port]);
            watcher.refresh();
        }
        try {
            if (opened != null && opened.failure() != null) {
                throw new IllegalStateException(opened.failure());
            }
            attach(port, opened != null ? opened.socket() : kindOf(port).open(request, calls, false, queues[port]));
            log.accept(now + "added, ifindex " + sockets[port].index());
        } catch (final IllegalStateException e) {
            // Not there yet, or not up: the port waits for the interface, as for one that went away.
            log.accept(now + "added, waiting for the interface: " + e.getMessage());
        }
    }

    /**
     * On the ports' thread: takes up what the kernel said of a port's link. News of an interface the port has left since
     * ({@code ctl add-port}), or of a removed port, is not its news.
     */
    public void take(final LinkNews link) {
        final int port = link.port();
        if (removed[port] || !link.interfaceName().equals(names.get(port))) {
            return;
        }
        final String prefix = "port " + port + " (" + link.interfaceName() + "): ";
        if (sockets[port] != null && (link.gone() || sockets[port].index() != link.index())) {
            detach(port, DropReason.LINK_DOWN);
            log.accept(prefix + "gone");
        }
        if (link.gone()) {
            return;
        }
        if (sockets[port] == null) {
            try {
                attach(port, kindOf(port).open(link.interfaceName(), calls, false, queues[port]));
            } catch (final IllegalStateException e) {
                // Gone again already, or not ours to open: the next notification tries again.
                log.accept(prefix + "cannot attach again: " + e.getMessage());
                return;
            }
            log.accept(prefix + "back, ifindex " + sockets[port].index());
        }
        final PortSocket socket = sockets[port];
        if (link.mtu() > 0 && link.mtu() != socket.mtu()) {
            socket.mtu(link.mtu());
            log.accept(prefix + "mtu " + link.mtu() + (link.mtu() + EthernetHeader.LENGTH > socket.longestFrame()
                ? ": more than its " + socket.describe() + " socket takes (frames of " + socket.longestFrame() + " bytes): longer ones are dropped" : ""));
        }
        if (link.up() != linkUp[port]) {
            // The kernel leaves ENETDOWN pending on the socket when its link falls: cleared, it cannot fail the next send.
            calls.clearError(socket.fd(), errorScratch);
            linkUp[port] = link.up();
            counters[port].set(CounterType.LINK_UP, link.up() ? 1 : 0);
            log.accept(prefix + (link.up() ? "up" : "down"));
        }
    }

    private synchronized void attach(final int port, final PortSocket socket) {
        sockets[port] = socket;
        linkUp[port] = false;
        registerForWakeUps(port);
    }

    /** Closes the port's socket and ring, counting what its kernel side dropped first; what it still had to send is refused. */
    private synchronized void detach(final int port, final DropReason reason) {
        refusePending(port, 0, reason);
        if (poller != null) {
            for (final int fd : sockets[port].wakeFds()) {
                poller.unwatch(fd);
            }
        }
        ringDrops(port);
        sockets[port].close();
        sockets[port] = null;
        linkUp[port] = false;
        counters[port].set(CounterType.LINK_UP, 0);
    }

    /** On the ports' thread: hands the frames waiting on every port to the handler; how many there were. */
    public int receive() {
        int frames = 0;
        for (final int port : ownPorts) {
            final PortSocket socket = sockets[port];
            if (socket != null) {
                frames += socket.receive(receivers[port], RECEIVE_BUDGET, calls, longFrame);
            }
        }
        return frames;
    }

    /**
     * On the ports' thread: sends {@code handle}'s frame out of {@code port} with this turn's {@link #flush()}, and gives
     * its buffer back then. A frame that the interface's MTU will not take, or that meets the link down, is dropped,
     * counted, at once.
     */
    public void send(final int port, final int handle) {
        if (removed[port]) {
            refuse(port, handle, DropReason.PORT_REMOVED);
            return;
        }
        if (!linkUp[port]) {
            refuse(port, handle, DropReason.LINK_DOWN);
            return;
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int length = pool.length(handle);
        final int offload = frame - OffloadHeader.LENGTH;
        if (pool.trimKind(handle) != TrimKind.NONE) {
            // Cut to its headers, with its checksums made whole by the trimmer: nothing is left to segment or complete.
            OffloadHeader.clear(buffer, offload);
        }
        if ((OffloadHeader.gsoType(buffer, offload) == OffloadHeader.GSO_NONE || !sockets[port].carriesOffload()) && length > maxFrame(port, buffer, frame, length)) {
            refuse(port, handle, DropReason.MTU_EXCEEDED);
            return;
        }
        final int at = pendingCount[port];
        final UnsafeBuffer batch = messages[port];
        batch.putLong(iovec(at), buffer.addressOffset() + offload);
        batch.putLong(iovec(at) + 8, (long) length + OffloadHeader.LENGTH);
        pending[port][at] = handle;
        pendingCount[port] = at + 1;
        if (at + 1 == SEND_BATCH) {
            flush(port);
        }
    }

    /** Counts {@code handle}'s frame once, under {@code reason} alone, and gives its buffer back. */
    private void refuse(final int port, final int handle, final DropReason reason) {
        counters[port].drop(reason);
        handler.onRefused(port, handle);
        release.release(handle);
    }

    /** The frames gathered for {@code port} from {@code from} on, refused under {@code reason}; none left gathered. */
    private void refusePending(final int port, final int from, final DropReason reason) {
        for (int i = from; i < pendingCount[port]; i++) {
            counters[port].drop(reason);
            handler.onRefused(port, pending[port][i]);
        }
        for (int i = 0; i < pendingCount[port]; i++) {
            release.release(pending[port][i]);
        }
        pendingCount[port] = 0;
    }

    /** The longest plain frame the port's interface sends: its MTU, the Ethernet header, and a VLAN tag if the frame has one. */
    private int maxFrame(final int port, final UnsafeBuffer buffer, final int frame, final int length) {
        final boolean tagged = length >= EthernetHeader.LENGTH && EthernetHeader.etherType(buffer, frame) == EthernetHeader.ETHER_TYPE_VLAN;
        return Math.min(sockets[port].longestFrame(), sockets[port].mtu() + EthernetHeader.LENGTH + (tagged ? VLAN_TAG : 0));
    }

    /** On the ports' thread: sends every port's gathered frames, one sendmmsg each. */
    public void flush() {
        for (final int port : ownPorts) {
            if (pendingCount[port] > 0) {
                flush(port);
            }
        }
    }

    private void flush(final int port) {
        final int count = pendingCount[port];
        final LivePortCounters counts = counters[port];
        final PortSocket socket = sockets[port];
        final int fd = socket.fd();
        int next = 0;
        boolean cleared = false;
        while (next < count) {
            final int sent = socket.send(calls, messages[port], next, count - next);
            if (sent > 0) {
                for (int i = next; i < next + sent; i++) {
                    counts.increment(CounterType.TX_FRAMES);
                    counts.add(CounterType.TX_SEGMENTS, segments(pending[port][i]));
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
                refusePending(port, next, DropReason.LINK_DOWN);
                return;
            }
            if (errno == LinuxCalls.EAGAIN || errno == LinuxCalls.ENOBUFS) {
                // The device's queue is full: what is left of this turn's frames is lost, as on a congested link.
                refusePending(port, next, DropReason.TX_BUSY);
                return;
            }
            // The kernel refused the frame at the head (a bad offload header, a frame the device will not take): skip it.
            counts.drop(DropReason.SOCKET_ERROR);
            handler.onRefused(port, pending[port][next]);
            next++;
        }
        for (int i = 0; i < count; i++) {
            release.release(pending[port][i]);
        }
        pendingCount[port] = 0;
    }

    private long segments(final int handle) {
        return OffloadHeader.segments(pool.buffer(handle), pool.offset(handle) - OffloadHeader.LENGTH, pool.length(handle));
    }

    public long received(final int port) {
        return counters[port].get(CounterType.RX_DATAGRAMS);
    }

    public long receivedSegments(final int port) {
        return counters[port].get(CounterType.RX_SEGMENTS);
    }

    public long sent(final int port) {
        return counters[port].get(CounterType.TX_FRAMES);
    }

    public long sentSegments(final int port) {
        return counters[port].get(CounterType.TX_SEGMENTS);
    }

    public long dropped(final int port, final DropReason reason) {
        return reason == DropReason.RING_OVERFLOW ? ringDrops(port) : counters[port].dropped(reason);
    }

    /** Frames the kernel dropped at the port's full ring, so far. */
    private synchronized long ringDrops(final int port) {
        if (sockets[port] != null) {
            ringDrops[port] += sockets[port].ringDrops(readerCalls);
        }
        return ringDrops[port];
    }

    /** The interface's MTU, once open. */
    public int mtu(final int port) {
        return sockets[port].mtu();
    }

    /** How {@code port} reads and sends, as its socket says, or its kind while it waits for its interface. */
    public String describe(final int port) {
        final PortSocket socket = sockets[port];
        return socket != null ? socket.describe() : kindOf(port).name();
    }

    /** The kind of socket {@code port} opens; {@link #defaultKind} for one not given at the start. */
    private SocketKind kindOf(final int port) {
        return kinds[port] != null ? kinds[port] : defaultKind;
    }

    /** The kind of socket a port added while the switch runs ({@code ctl add-port}) opens. */
    public void defaultKind(final SocketKind kind) {
        this.defaultKind = kind;
    }

    /** Whether the port's link carries frames now, as its thread last saw it. */
    public boolean linkUp(final int port) {
        return counters[port].get(CounterType.LINK_UP) == 1;
    }

    public List<Attachment> attachments() {
        return attachments;
    }

    /** The interface {@code port} sits on now, or waits for. */
    public String interfaceName(final int port) {
        return names.get(port);
    }

    /** Whether {@code port} has its interface open; for the control thread, once its request was carried out. */
    public boolean attached(final int port) {
        return sockets[port] != null;
    }

    /** Whether {@code port} was removed; for the control thread, once its request was carried out. */
    public boolean removed(final int port) {
        return removed[port];
    }

    /**
     * Closes every socket, giving back the buffers of frames not yet sent, and frees the ports' native memory; once the
     * ports' thread has ended (or never ran). A second call does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int port = 0; port < prepared.length(); port++) {
            final Prepared unclaimed = prepared.getAndSet(port, null);
            if (unclaimed != null) {
                unclaimed.close();
            }
        }
        for (final int port : ownPorts) {
            for (int i = 0; i < pendingCount[port]; i++) {
                release.release(pending[port][i]);
            }
            pendingCount[port] = 0;
            if (sockets[port] != null) {
                ringDrops(port);
                sockets[port].close();
                sockets[port] = null;
            }
        }
        synchronized (controlCalls) {
            // Not while the control thread opens an interface with the arena's memory.
            arena.close();
        }
    }

    /** One port's side of the receive ring. */
    private final class PortReceiver implements PortSocket.Receiver {
        private final int port;

        PortReceiver(final int port) {
            this.port = port;
        }

        @Override
        public void onFrame(final UnsafeBuffer ring, final int frame, final int length) {
            final LivePortCounters counts = counters[port];
            counts.increment(CounterType.RX_DATAGRAMS);
            if (length < EthernetHeader.LENGTH) {
                counts.drop(DropReason.TOO_SHORT);
                return;
            }
            if (length > pool.slotBytes()) {
                counts.drop(DropReason.OVERSIZE);
                return;
            }
            counts.add(CounterType.RX_SEGMENTS, OffloadHeader.segments(ring, frame - OffloadHeader.LENGTH, length));
            handler.onFrame(port, ring, frame, length);
        }

        @Override
        public void onTruncated() {
            counters[port].increment(CounterType.RX_DATAGRAMS);
            counters[port].drop(DropReason.TRUNCATED);
        }

        @Override
        public void onVlanStripped() {
            counters[port].increment(CounterType.RX_DATAGRAMS);
            counters[port].drop(DropReason.VLAN_TAGGED);
        }
    }
}
