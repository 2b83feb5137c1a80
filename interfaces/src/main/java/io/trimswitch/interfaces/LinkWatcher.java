package io.trimswitch.interfaces;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Follows the kernel's news of the switch's interfaces, as the Linux bridge does: an rtnetlink socket (NETLINK_ROUTE,
 * subscribed to RTMGRP_LINK) read on a thread the switch gives it (this module starts none), which only hands each RTM_NEWLINK or RTM_DELLINK for a
 * followed name to that name's listeners (the ports, which take it up on their own thread). It asks for a dump of every
 * link as it starts, so that the ports learn the state their links are in, not only later changes, and again when the
 * kernel says it dropped notifications (ENOBUFS). No polling of sysfs.
 */
public final class LinkWatcher implements AutoCloseable {
    /** Big enough for a dump's batch (the kernel fills up to its page-sized messages), well over one link's message. */
    private static final int RECEIVE_BYTES = 64 << 10;
    /** How long a receive waits before the thread looks whether it should stop. */
    private static final long RECEIVE_TIMEOUT_MICROS = 200_000;
    private static final int QUEUE_BYTES = 1 << 20;
    private static final int NLM_F_REQUEST = 0x1;
    private static final int NLM_F_DUMP = 0x300;

    private final Arena arena = Arena.ofShared();
    private final LinuxCalls calls = new LinuxCalls(arena);
    /** Followed while running too ({@code ctl add-port}): read by the watcher's thread, added to by the ports' threads. */
    private final Map<String, List<LinkMessages.Listener>> listeners = new java.util.concurrent.ConcurrentHashMap<>();
    /** Set by a port that follows a new name: the watcher asks the kernel for every link again, to learn its state. */
    private volatile boolean dumpWanted;
    private final UnsafeBuffer received;
    private final MemorySegment dumpRequest;
    private final int fd;
    /** Counted down when the reading thread has ended: the socket's memory is then free to go. */
    private final CountDownLatch ended = new CountDownLatch(1);
    private boolean started;
    private volatile boolean running;
    private int sequence;

    private LinkWatcher(final int fd) {
        this.fd = fd;
        final MemorySegment bytes = arena.allocate(RECEIVE_BYTES, 8);
        this.received = new UnsafeBuffer(bytes.address(), RECEIVE_BYTES);
        this.dumpRequest = arena.allocate(LinkMessages.NLMSG_HEADER_BYTES + LinkMessages.IFINFOMSG_BYTES, 8);
    }

    /**
     * A socket subscribed to the kernel's link notifications.
     *
     * @throws IllegalStateException in one line when the kernel refuses it
     */
    public static LinkWatcher open() {
        final LinuxCalls setup;
        try (Arena scratch = Arena.ofConfined()) {
            setup = new LinuxCalls(scratch);
            final int fd = setup.socket(LinuxCalls.AF_NETLINK, LinuxCalls.SOCK_RAW | LinuxCalls.SOCK_CLOEXEC, LinuxCalls.NETLINK_ROUTE);
            if (fd < 0) {
                throw new IllegalStateException("cannot open a netlink socket to follow the interfaces: " + LinuxCalls.describe(setup.errno()));
            }
            try {
                final MemorySegment address = scratch.allocate(LinuxCalls.SOCKADDR_NL_BYTES);
                address.set(ValueLayout.JAVA_SHORT, 0, (short) LinuxCalls.AF_NETLINK);
                address.set(ValueLayout.JAVA_INT, 8, LinuxCalls.RTMGRP_LINK);
                if (setup.bind(fd, address) != 0) {
                    throw new IllegalStateException("cannot follow the interfaces' links (netlink): " + LinuxCalls.describe(setup.errno()));
                }
                final MemorySegment timeout = scratch.allocate(LinuxCalls.TIMEVAL_BYTES);
                timeout.set(ValueLayout.JAVA_LONG, 8, RECEIVE_TIMEOUT_MICROS);
                setup.setsockopt(fd, LinuxCalls.SOL_SOCKET, LinuxCalls.SO_RCVTIMEO, timeout);
                // A burst of notifications (a Mininet topology torn down) must not overflow the socket's queue.
                final MemorySegment queue = scratch.allocate(ValueLayout.JAVA_INT);
                queue.set(ValueLayout.JAVA_INT, 0, QUEUE_BYTES);
                if (setup.setsockopt(fd, LinuxCalls.SOL_SOCKET, LinuxCalls.SO_RCVBUFFORCE, queue) != 0) {
                    setup.setsockopt(fd, LinuxCalls.SOL_SOCKET, LinuxCalls.SO_RCVBUF, queue);
                }
                return new LinkWatcher(fd);
            } catch (final RuntimeException e) {
                LinuxCalls.close(fd);
                throw e;
            }
        }
    }

    /** {@code listener} hears, on the watcher's thread, every notification for {@code interfaceName}; from any thread. */
    void follow(final String interfaceName, final LinkMessages.Listener listener) {
        final List<LinkMessages.Listener> followers = listeners.computeIfAbsent(interfaceName, name -> new java.util.concurrent.CopyOnWriteArrayList<>());
        if (!followers.contains(listener)) {
            followers.add(listener);
        }
    }

    /** Asks the watcher to learn every link's state again, within its next wait. */
    void refresh() {
        dumpWanted = true;
    }

    /**
     * Asks for the state of every link, then hands on the news as it comes, on the thread that {@code thread} runs it
     * on: one of its own, which ends with {@link #close()}.
     */
    public void start(final Executor thread) {
        running = true;
        started = true;
        thread.execute(() -> {
            try {
                run();
            } finally {
                ended.countDown();
            }
        });
    }

    private void run() {
        final LinkMessages.Listener dispatch = link -> {
            final List<LinkMessages.Listener> followers = listeners.get(link.name());
            if (followers != null) {
                for (final LinkMessages.Listener follower : followers) {
                    follower.link(link);
                }
            }
        };
        askForEveryLink();
        while (running) {
            final long read = calls.recvWaiting(fd, received.addressOffset(), RECEIVE_BYTES);
            if (read > 0) {
                LinkMessages.read(received, 0, (int) Math.min(read, RECEIVE_BYTES), dispatch);
            } else if (read < 0 && calls.errno() == LinuxCalls.ENOBUFS) {
                // The kernel dropped notifications: what they said is found again in a fresh dump.
                askForEveryLink();
            }
            if (dumpWanted) {
                dumpWanted = false;
                askForEveryLink();
            }
        }
    }

    private void askForEveryLink() {
        dumpRequest.fill((byte) 0);
        dumpRequest.set(ValueLayout.JAVA_INT, 0, (int) dumpRequest.byteSize());
        dumpRequest.set(ValueLayout.JAVA_SHORT, 4, (short) LinkMessages.RTM_GETLINK);
        dumpRequest.set(ValueLayout.JAVA_SHORT, 6, (short) (NLM_F_REQUEST | NLM_F_DUMP));
        dumpRequest.set(ValueLayout.JAVA_INT, 8, ++sequence);
        calls.send(fd, dumpRequest);
    }

    /** Stops the thread (within its receive timeout) and closes the socket. */
    @Override
    public void close() {
        running = false;
        boolean done = !started;
        try {
            done = done || ended.await(2, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LinuxCalls.close(fd);
        if (done) {
            arena.close();
        }
    }
}
