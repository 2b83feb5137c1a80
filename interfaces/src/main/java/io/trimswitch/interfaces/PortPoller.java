package io.trimswitch.interfaces;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where a pipeline shard's thread sleeps when it has nothing to do: one epoll set of its ports' file descriptors
 * (interface rings, UDP sockets) and an eventfd that other threads write to wake it. The thread takes the frames
 * itself once awake; the set only ends the wait. Sleeps are timed to the nanosecond (epoll_pwait2), so a thread can
 * sleep until a packet on a slow link finishes. No event loop, no thread of its own.
 */
public final class PortPoller implements AutoCloseable {
    /** {@link #await}: until a port has a frame or another thread wakes the sleeper. */
    public static final long FOREVER = Long.MAX_VALUE;
    private static final int MAX_EVENTS = 64;
    /** The eventfd's key in the set; a port's key is its fd, never this. */
    private static final long WAKE_KEY = -1;
    /** A key's bit that says the fd is a packet socket, whose pending error the sleeper clears. */
    private static final long PACKET_SOCKET = 1L << 32;

    private final Arena arena = Arena.ofShared();
    /** The sleeper's calls; wakers write through their own, so errno is never shared. */
    private final LinuxCalls calls = new LinuxCalls(arena);
    private final LinuxCalls wakerCalls = new LinuxCalls(arena);
    /**
     * Registrations' calls, under this object's lock, from whichever thread: never the sleeper's, whose epoll wait reads
     * errno back (ENOSYS: no epoll_pwait2) and must not read a registration's.
     */
    private final LinuxCalls registerCalls = new LinuxCalls(arena);
    private final int epoll;
    private final int wakeFd;
    private final MemorySegment events = arena.allocate((long) MAX_EVENTS * LinuxCalls.EPOLL_EVENT_BYTES, 8);
    private final MemorySegment control = arena.allocate(LinuxCalls.EPOLL_EVENT_BYTES, 8);
    private final MemorySegment timeout = arena.allocate(16, 8);
    private final MemorySegment counter = arena.allocate(8, 8);
    private final MemorySegment one = arena.allocate(8, 8);
    private final MemorySegment errorScratch = arena.allocate(8, 8);
    private boolean closed;

    /** @throws IllegalStateException with the kernel's reason when the set or the eventfd cannot be made */
    public PortPoller() {
        this.epoll = calls.epollCreate();
        if (epoll < 0) {
            throw new IllegalStateException("cannot make an epoll set: " + LinuxCalls.describe(calls.errno()));
        }
        this.wakeFd = calls.eventFd();
        if (wakeFd < 0) {
            LinuxCalls.close(epoll);
            throw new IllegalStateException("cannot make an eventfd: " + LinuxCalls.describe(calls.errno()));
        }
        one.set(ValueLayout.JAVA_LONG, 0, 1L);
        register(wakeFd, WAKE_KEY);
    }

    /**
     * Wakes the sleeper when {@code fd} (a UDP socket) has data. From any thread, the sleeper's wait included: the
     * kernel takes a descriptor added to a set that a thread waits on into that wait.
     */
    public void add(final int fd) {
        register(fd, fd);
    }

    /**
     * As {@link #add}, for a packet socket: its pending error (a fallen link) is read when it wakes the sleeper. The
     * sleeper wakes once at once, to read the new socket: an AF_XDP socket has nothing to wake it on before its reader has
     * lent its fill ring buffers to receive into, which that first read does.
     */
    public void addPacketSocket(final int fd) {
        register(fd, fd | PACKET_SOCKET);
        wake();
    }

    private synchronized void register(final int fd, final long key) {
        control.set(ValueLayout.JAVA_INT, 0, LinuxCalls.EPOLLIN);
        control.set(ValueLayout.JAVA_LONG_UNALIGNED, LinuxCalls.EPOLL_EVENT_DATA, key);
        if (registerCalls.epollCtl(epoll, LinuxCalls.EPOLL_CTL_ADD, fd, control.address()) < 0) {
            throw new IllegalStateException("cannot watch fd " + fd + ": " + LinuxCalls.describe(registerCalls.errno()));
        }
    }

    /** Stops watching {@code fd}, before it is closed. */
    public synchronized void remove(final int fd) {
        registerCalls.epollCtl(epoll, LinuxCalls.EPOLL_CTL_DEL, fd, control.address());
    }

    /**
     * On the sleeper's thread: waits until a port has a frame, another thread calls {@link #wake()}, or {@code nanos}
     * have passed ({@link #FOREVER}: no limit). A wake-up that came before the call ends it at once.
     */
    public void await(final long nanos) {
        final long limit;
        if (nanos == FOREVER) {
            limit = 0;
        } else {
            timeout.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
            timeout.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
            limit = timeout.address();
        }
        final int ready = calls.epollWait(epoll, events.address(), MAX_EVENTS, limit, nanos);
        for (int i = 0; i < ready; i++) {
            final long at = (long) i * LinuxCalls.EPOLL_EVENT_BYTES;
            final long key = events.get(ValueLayout.JAVA_LONG_UNALIGNED, at + LinuxCalls.EPOLL_EVENT_DATA);
            if (key == WAKE_KEY) {
                calls.read(wakeFd, counter.address(), 8);
            } else if ((key & PACKET_SOCKET) != 0 && (events.get(ValueLayout.JAVA_INT, at) & LinuxCalls.EPOLLERR) != 0) {
                // The kernel flagged a link's fall on the socket: read, the flag stops waking the thread at every wait.
                calls.clearError((int) key, errorScratch);
            }
        }
    }

    /** From any thread: ends the sleeper's wait, or its next one if it is not asleep. */
    public synchronized void wake() {
        if (!closed) {
            wakerCalls.write(wakeFd, one.address(), 8);
        }
    }

    /** Once the sleeper's thread has ended; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LinuxCalls.close(wakeFd);
        LinuxCalls.close(epoll);
        arena.close();
    }
}
