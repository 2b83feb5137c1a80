package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The switch ports of one pipeline thread that sit on Linux interfaces (veths, NICs), DPDK style: the thread takes
 * frames off each port's receive ring itself, without a system call, into buffers of its own partition of the packet
 * pool, a descriptor each in the thread's {@link Burst} ({@link #receive}); it sends what departed in one sendmmsg per port
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

    /** A port on an interface, read and sent through a socket of {@code kind} on its first {@code queues} receive queues. */
    public record Attachment(int port, String interfaceName, SocketKind kind, int queues) {
        public Attachment(final int port, final String interfaceName) {
            this(port, interfaceName, SocketKinds.named(SocketKinds.AF_PACKET), 1);
        }
    }

    /** What takes back a frame's count as sent when its port then refuses it, on the ports' thread. */
    public interface Refusals {
        /** No frame counted as sent is ever refused: nothing to take back. */
        Refusals NONE = (port, handle) -> { };

        /**
         * The port refused to send {@code handle}'s frame, which left its egress port and is now counted as dropped under
         * the port's reason: whatever counted it as sent takes that back. Called before the buffer is released.
         */
        void onRefused(int port, int handle);
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
     * Why a port does not take a frame or does not send one. Not ringOverflow or fillRingEmpty: the kernel counts those
     * (PACKET_STATISTICS, XDP_STATISTICS), {@link #dropped} reads them, and the switch's gauges alone write them to the counters.
     */
    private static final List<DropReason> DROPS = List.of(DropReason.TRUNCATED, DropReason.VLAN_TAGGED, DropReason.TOO_SHORT, DropReason.OVERSIZE,
        DropReason.MTU_EXCEEDED, DropReason.TX_BUSY, DropReason.SOCKET_ERROR, DropReason.LINK_DOWN, DropReason.PORT_REMOVED);
    private final List<Attachment> attachments;
    private final Refusals handler;
    private final PacketPool pool;
    /** A free buffer of the ports' thread's partition, for each frame received. */
    private final IntSupplier allocate;
    private final Release release;
    private final Arena arena = Arena.ofShared();
    /** Set by {@link #close()}, after which the arena's memory is gone. */
    private volatile boolean closed;
    /** The ports' thread's calls, and where a socket's pending error is read into on that thread. */
    private final LinuxCalls calls = new LinuxCalls(arena);
    private final MemorySegment errorScratch = arena.allocate(8, 8);
    private final PortReceiver[] receivers;
    /** See {@link #readThroughNanos()}. */
    private long readThroughNanos = Long.MAX_VALUE;
    private final PortSender[] senders;
    /** Per port: frames and segments received and sent, then frames refused by reason; this port's thread alone writes them. */
    private final LivePortCounters[] counters;
    /** Per port: its socket, its link's state, and how they change. */
    private final PortLinks links;
    /** The ports' thread alone changes it, as {@code ctl add-port} gives it one more ({@link #adopt}). */
    private int[] ownPorts;
    private final CounterRegistry registry;
    private final String writer;
    /** Where a frame too long for a ring slot is read, on the ports' thread. */
    private final UnsafeBuffer longFrame;

    /**
     * @param maxPorts the switch's ports at most: the room kept for ports given to it while it runs
     * @param allocate a free buffer of {@code pool} for a frame received, from the ports' thread's partition
     * @param registry where the ports' counters live, written by the ports' thread, named {@code writer}
     */
    public InterfacePorts(final List<Attachment> attachments, final int maxPorts, final Refusals handler, final PacketPool pool,
        final IntSupplier allocate, final Release release, final CounterRegistry registry, final String writer) {
        if (pool.headroom() < OffloadHeader.LENGTH) {
            throw new IllegalArgumentException("interface ports need a pool with room for an offload header ahead of each frame");
        }
        this.attachments = List.copyOf(attachments);
        this.handler = handler;
        this.pool = pool;
        this.allocate = allocate;
        this.release = release;
        this.registry = registry;
        this.writer = writer;
        int ports = maxPorts;
        for (final Attachment attachment : attachments) {
            ports = Math.max(ports, attachment.port() + 1);
        }
        this.receivers = new PortReceiver[ports];
        this.senders = new PortSender[ports];
        this.counters = new LivePortCounters[ports];
        this.links = new PortLinks(this.attachments, arena, calls, errorScratch, senders, counters);
        this.ownPorts = attachments.stream().mapToInt(Attachment::port).toArray();
        final MemorySegment longFrameBytes = arena.allocate(PortSocket.LONG_FRAME_BYTES + 1, 64);
        this.longFrame = new UnsafeBuffer(longFrameBytes.address(), (int) longFrameBytes.byteSize());
        for (final int port : ownPorts) {
            counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        }
        for (final int port : ownPorts) {
            makeRoom(port);
        }
    }

    /** The port's receiver and its sender, with its send batch's messages in native memory. */
    private void makeRoom(final int port) {
        receivers[port] = new PortReceiver(port, counters[port], counters[port], pool, allocate);
        senders[port] = new PortSender(port, pool, handler, release, counters[port], calls, errorScratch, arena);
    }

    /**
     * Opens every port's interface.
     *
     * @throws IllegalStateException naming the port and interface, with the reason, when one cannot be opened
     */
    public void open() {
        for (final Attachment attachment : attachments) {
            try {
                links.open(attachment);
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
        links.wakeOnFrames(poller);
    }

    /**
     * Lets the ports follow their links: {@code watcher} tells of each interface by its name, on its own thread;
     * {@code news} hands each word to the ports' thread, which takes it up ({@link #take}); {@code log} gets one line
     * per change the ports make.
     */
    public void follow(final LinkWatcher watcher, final Consumer<LinkNews> news, final Consumer<String> log) {
        links.follow(attachments, watcher, news, log);
    }

    /**
     * On the ports' thread: takes {@code port}, which the switch did not start with, and attaches it to
     * {@code interfaceName} ({@code ctl add-port}), or lets it wait for the interface as for one that went away. Its
     * counters are registered now; the switch's counters file has room for them.
     */
    public void adopt(final int port, final String interfaceName) {
        counters[port] = new LivePortCounters(registry, writer, port, METRICS, DROPS);
        makeRoom(port);
        ownPorts = Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        links.adopt(port, interfaceName);
    }

    /**
     * From the control thread, before it asks the ports' thread to attach {@code port} to {@code interfaceName}
     * ({@link #adopt}, {@link #attachTo}): opens the interface and maps its ring here, which takes milliseconds that the
     * ports' thread would otherwise spend not forwarding; that thread then only registers the socket. An interface that
     * cannot be opened yet is noted, and the port waits for it.
     */
    public void prepare(final int port, final String interfaceName) {
        links.prepare(port, interfaceName);
    }

    /**
     * On the ports' thread ({@code ctl del-port}): closes {@code port}'s socket and ring; what is queued for it or still
     * comes is dropped as {@code portRemoved} until it is attached again.
     */
    public void remove(final int port) {
        links.request(port, "");
    }

    /**
     * On the ports' thread ({@code ctl add-port}): attaches {@code port} to {@code interfaceName}, opened by
     * {@link #prepare} if the control thread did, or lets it wait for the interface as for one that went away.
     */
    public void attachTo(final int port, final String interfaceName) {
        links.request(port, interfaceName);
    }

    /**
     * On the ports' thread: takes up what the kernel said of a port's link. News of an interface the port has left since
     * ({@code ctl add-port}), or of a removed port, is not its news.
     */
    public void take(final LinkNews link) {
        links.take(link);
    }

    /**
     * On the ports' thread: takes the frames waiting on every port, up to a budget each and {@code burst}'s room, into
     * buffers of the thread's partition, a descriptor each in {@code burst}; how many frames were taken off the rings
     * (those dropped here, counted by reason, among them).
     */
    public int receive(final Burst burst) {
        calls.clocks().sample();
        readThroughNanos = Long.MAX_VALUE;
        int frames = 0;
        for (final int port : ownPorts) {
            final PortSocket socket = links.socket(port);
            final int budget = Math.min(RECEIVE_BUDGET, burst.room());
            if (socket != null && budget > 0) {
                final int taken = socket.receive(receivers[port].into(burst), budget, calls, longFrame);
                final long last = receivers[port].lastReceivedNanos();
                if (taken == budget && last != Burst.UNSTAMPED && (readThroughNanos == Long.MAX_VALUE || last - readThroughNanos < 0)) {
                    readThroughNanos = last;
                }
                frames += taken;
            }
        }
        return frames;
    }

    /**
     * After {@link #receive}: the host time up to which every frame the kernel received is in the burst, where a port
     * had more than its budget and so still holds frames received after its last one taken; MAX_VALUE: every ring was
     * emptied (or cannot tell).
     */
    public long readThroughNanos() {
        return readThroughNanos;
    }

    /**
     * On the ports' thread: sends {@code handle}'s frame out of {@code port} with this turn's {@link #flush()}, and gives
     * its buffer back then. A frame that the interface's MTU will not take, or that meets the link down, is dropped,
     * counted, at once.
     */
    public void send(final int port, final int handle) {
        if (links.removed(port)) {
            senders[port].refuse(handle, DropReason.PORT_REMOVED);
            return;
        }
        if (!links.up(port)) {
            senders[port].refuse(handle, DropReason.LINK_DOWN);
            return;
        }
        senders[port].send(links.socket(port), handle);
    }

    /** On the ports' thread: whether a port's receive queue waits for buffers to lend ({@link PortSocket#waitsForBuffers}). */
    public boolean waitsForBuffers() {
        for (final int port : ownPorts) {
            final PortSocket socket = links.socket(port);
            if (socket != null && socket.waitsForBuffers()) {
                return true;
            }
        }
        return false;
    }

    /** On the ports' thread: sends every port's gathered frames, one sendmmsg each. */
    public void flush() {
        for (final int port : ownPorts) {
            if (senders[port].hasPending()) {
                senders[port].flush(links.socket(port));
            }
        }
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
        return reason == DropReason.RING_OVERFLOW ? links.ringDrops(port)
            : reason == DropReason.FILL_RING_EMPTY ? links.fillRingDrops(port) : counters[port].dropped(reason);
    }

    /** The interface's MTU, once open. */
    public int mtu(final int port) {
        return links.socket(port).mtu();
    }

    /** How {@code port} reads and sends, as its socket says, or its kind while it waits for its interface. */
    public String describe(final int port) {
        final PortSocket socket = links.socket(port);
        return socket != null ? socket.describe() : links.kindOf(port).name();
    }

    /** The kind of socket a port added while the switch runs ({@code ctl add-port}) opens. */
    public void defaultKind(final SocketKind kind) {
        links.defaultKind(kind);
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
        return links.name(port);
    }

    /** Whether {@code port} has its interface open; for the control thread, once its request was carried out. */
    public boolean attached(final int port) {
        return links.socket(port) != null;
    }

    /** Whether {@code port} was removed; for the control thread, once its request was carried out. */
    public boolean removed(final int port) {
        return links.removed(port);
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
        for (final int port : ownPorts) {
            senders[port].releasePending();
        }
        links.closeSockets();
        links.free(arena);
    }
}
