package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.interfaces.InterfacePorts.Attachment;
import io.trimswitch.interfaces.InterfacePorts.LinkNews;
import io.trimswitch.interfaces.InterfacePorts.Readiness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The interface ports' links: which socket each port has open, whether its link carries frames, and how both change as
 * the kernel tells of the link ({@link #take}) and as ports are added and removed while the switch runs. A port whose
 * interface goes away keeps waiting for it; one made again under its name is opened afresh (new index, socket, ring).
 */
final class PortLinks {
    /** Indexed by switch port; null for ports that are not this thread's interfaces, or wait for theirs. */
    private final PortSocket[] sockets;
    /** Per port: the kind of socket it opens; a port added while running gets {@link #defaultKind}. */
    private final SocketKind[] kinds;
    /** Per port: the receive queues it reads (1 for a port added while running). */
    private final int[] queues;
    private SocketKind defaultKind = SocketKinds.named(SocketKinds.AF_PACKET);
    /** Per port, on the ports' thread: whether its link carries frames now. */
    private final boolean[] linkUp;
    /** Per port, on the ports' thread: removed while running ({@code ctl del-port}), until added again. */
    private final boolean[] removed;
    /** Per port: the interface it sits on; the ports' thread changes it ({@code ctl add-port}), others read it. */
    private final AtomicReferenceArray<String> names;
    /** Per port: ring drops read so far; written under this object's lock by whichever thread asks. */
    private final long[] ringDrops;
    /** Per port: frames the kernel dropped at its empty fill ring, over every socket it had. */
    private final long[] fillRingDrops;
    /** errno for the readers of ring drops, who are not the ports' thread. */
    private final LinuxCalls readerCalls;
    /** The ports' thread's calls, and where a socket's pending error is read into. */
    private final LinuxCalls calls;
    private final MemorySegment errorScratch;
    /** Per port, shared with the ports: what a port gone down still had to send, and its link gauge. */
    private final PortSender[] senders;
    private final LivePortCounters[] counters;
    /** Per port: the interface the control thread opened for the port's next attachment. */
    private final PreparedSockets prepared;
    /** What wakes the ports' thread when a ring has a frame; null for a thread that never sleeps. */
    private Readiness poller;
    private LinkWatcher watcher;
    /** Hands each link's news to the ports' thread. */
    private Consumer<LinkNews> news = link -> { };
    private Consumer<String> log = line -> { };
    private final LinkMessages.Listener[] listeners;

    PortLinks(final List<Attachment> attachments, final Arena arena, final LinuxCalls calls, final MemorySegment errorScratch,
        final PortSender[] senders, final LivePortCounters[] counters) {
        final int ports = senders.length;
        this.sockets = new PortSocket[ports];
        this.kinds = new SocketKind[ports];
        this.queues = new int[ports];
        Arrays.fill(queues, 1);
        this.linkUp = new boolean[ports];
        this.removed = new boolean[ports];
        this.names = new AtomicReferenceArray<>(ports);
        for (final Attachment attachment : attachments) {
            names.set(attachment.port(), attachment.interfaceName());
            kinds[attachment.port()] = attachment.kind();
            queues[attachment.port()] = attachment.queues();
        }
        this.ringDrops = new long[ports];
        this.fillRingDrops = new long[ports];
        this.readerCalls = new LinuxCalls(arena);
        this.calls = calls;
        this.errorScratch = errorScratch;
        this.senders = senders;
        this.counters = counters;
        this.prepared = new PreparedSockets(ports, arena);
        this.listeners = new LinkMessages.Listener[ports];
    }

    /** Opens {@code attachment}'s interface, its link up until the kernel's first word on its carrier says otherwise. */
    void open(final Attachment attachment) {
        final int port = attachment.port();
        sockets[port] = attachment.kind().open(attachment.interfaceName(), calls, true, attachment.queues());
        registerForWakeUps(port);
        linkUp[port] = true;
        counters[port].set(CounterType.LINK_UP, 1);
    }

    void wakeOnFrames(final Readiness poller) {
        this.poller = poller;
        for (int port = 0; port < sockets.length; port++) {
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

    void follow(final List<Attachment> attachments, final LinkWatcher watcher, final Consumer<LinkNews> news, final Consumer<String> log) {
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

    /** On the ports' thread: {@code port}, not one the switch started with, attaches to {@code interfaceName}. */
    void adopt(final int port, final String interfaceName) {
        kinds[port] = defaultKind;
        listeners[port] = listenerFor(port);
        request(port, interfaceName);
    }

    /** From the control thread: opens {@code interfaceName} for {@code port}'s next attachment. */
    void prepare(final int port, final String interfaceName) {
        prepared.prepare(port, interfaceName, kindOf(port), queues[port]);
    }

    /** On the ports' thread: attaches {@code port} to {@code request}, or removes it for an empty request. */
    void request(final int port, final String request) {
        request(port, request, prepared.claim(port, request));
    }

    /** {@code opened}: the interface as the control thread opened it, or null when it did not; then it is opened here. */
    private void request(final int port, final String request, final PreparedSockets.Prepared opened) {
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
    void take(final LinkNews link) {
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
        senders[port].refusePending(0, reason);
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

    /** Frames the kernel dropped at the port's full ring, so far. */
    synchronized long ringDrops(final int port) {
        if (sockets[port] != null) {
            ringDrops[port] += sockets[port].ringDrops(readerCalls);
            fillRingDrops[port] += sockets[port].fillRingDrops();
        }
        return ringDrops[port];
    }

    /** Frames the kernel dropped at the port's empty fill ring, so far. */
    synchronized long fillRingDrops(final int port) {
        ringDrops(port);
        return fillRingDrops[port];
    }

    /** The port's open socket; null while it waits for its interface or is not this thread's. */
    PortSocket socket(final int port) {
        return sockets[port];
    }

    boolean up(final int port) {
        return linkUp[port];
    }

    boolean removed(final int port) {
        return removed[port];
    }

    String name(final int port) {
        return names.get(port);
    }

    /** The kind of socket {@code port} opens; {@link #defaultKind} for one not given at the start. */
    SocketKind kindOf(final int port) {
        return kinds[port] != null ? kinds[port] : defaultKind;
    }

    void defaultKind(final SocketKind kind) {
        this.defaultKind = kind;
    }

    /** Closes every socket that no request took, then every port's own; nothing is opened from now on. */
    synchronized void closeSockets() {
        prepared.close();
        for (int port = 0; port < sockets.length; port++) {
            if (sockets[port] != null) {
                ringDrops(port);
                sockets[port].close();
                sockets[port] = null;
            }
        }
    }

    /** Frees {@code arena}, not while the control thread opens an interface with its memory. */
    void free(final Arena arena) {
        prepared.free(arena);
    }
}
