package io.trimswitch.interfaces;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the interface ports need, through the FFM API: no JNI, no native build step. Each call that can
 * fail captures errno in the caller's {@link #errno() state segment}, so the reason for a failure is the kernel's own
 * and not whatever a later call left behind.
 */
public final class LinuxCalls {
    public static final int AF_PACKET = 17;
    public static final int SOCK_RAW = 3;
    /** ETH_P_ALL in network byte order, as socket() and sockaddr_ll take it. */
    public static final short ETH_P_ALL_BE = 0x0300;
    public static final int SOL_PACKET = 263;
    public static final int PACKET_ADD_MEMBERSHIP = 1;
    public static final int PACKET_RX_RING = 5;
    public static final int PACKET_STATISTICS = 6;
    public static final int PACKET_COPY_THRESH = 7;
    public static final int SOL_SOCKET = 1;
    public static final int SO_RCVBUF = 8;
    public static final int SO_RCVBUFFORCE = 33;
    public static final int PACKET_VERSION = 10;
    public static final int PACKET_VNET_HDR = 15;
    public static final int PACKET_QDISC_BYPASS = 20;
    public static final int PACKET_IGNORE_OUTGOING = 23;
    public static final int TPACKET_V2 = 1;
    public static final int PACKET_MR_PROMISC = 1;
    public static final int PROT_READ_WRITE = 3;
    public static final int MAP_SHARED = 1;
    public static final int MSG_DONTWAIT = 0x40;
    public static final long SIOCGIFFLAGS = 0x8913;
    public static final long SIOCGIFMTU = 0x8921;
    public static final short IFF_UP = 0x1;
    public static final int EPERM = 1;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int ENOBUFS = 105;
    public static final int ENETDOWN = 100;
    public static final int ENXIO = 6;
    public static final int ENODEV = 19;
    public static final int AF_NETLINK = 16;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int NETLINK_ROUTE = 0;
    public static final int RTMGRP_LINK = 1;
    public static final int SO_ERROR = 4;
    public static final int SO_RCVTIMEO = 20;
    /** struct sockaddr_nl. */
    public static final int SOCKADDR_NL_BYTES = 12;
    /** struct timeval. */
    public static final int TIMEVAL_BYTES = 16;

    /** struct ifreq: the interface's name, then a union that holds its flags or its MTU. */
    public static final int IFREQ_BYTES = 40;
    public static final int IFREQ_UNION = 16;
    /** struct sockaddr_ll. */
    public static final int SOCKADDR_LL_BYTES = 20;
    /** struct packet_mreq. */
    public static final int PACKET_MREQ_BYTES = 16;
    /** struct tpacket_req. */
    public static final int TPACKET_REQ_BYTES = 16;
    /** struct mmsghdr: a msghdr and the count the kernel writes back, padded to 64 bytes. */
    public static final int MMSGHDR_BYTES = 64;
    public static final int MSGHDR_IOV = 16;
    public static final int MSGHDR_IOVLEN = 24;
    /** struct iovec. */
    public static final int IOVEC_BYTES = 16;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle SOCKET = errnoCall("socket", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle SETSOCKOPT = errnoCall("setsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle GETSOCKOPT = errnoCall("getsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle BIND = errnoCall("bind", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle MMAP = errnoCall("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS,
        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = call("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = call("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle IOCTL = errnoCall("ioctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
    private static final MethodHandle IF_NAMETOINDEX = call("if_nametoindex", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    /** The messages' address as a plain long (the same register on x86-64 and AArch64): no segment made per call. */
    /** Every turn a port sends: errno read only when it fails ({@link ThreadErrno}), so that a call makes no garbage. */
    private static final MethodHandle SENDMMSG = call("sendmmsg", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle RECV = errnoCall("recv", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle SEND = errnoCall("send", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle EPOLL_CREATE1 = errnoCall("epoll_create1", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle EPOLL_CTL = errnoCall("epoll_ctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    /** Waits to the nanosecond; null where the C library is older than glibc 2.35, which has only epoll_wait. */
    private static final MethodHandle EPOLL_PWAIT2 = LIBC.find("epoll_pwait2").map(address -> LINKER.downcallHandle(address,
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG), CAPTURE_ERRNO)).orElse(null);
    private static final MethodHandle EPOLL_WAIT = errnoCall("epoll_wait", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final int ENOSYS = 38;
    /** Set once a kernel older than 5.11 has answered epoll_pwait2 with ENOSYS: from then on, epoll_wait. */
    private static volatile boolean noPwait2 = EPOLL_PWAIT2 == null;
    private static final MethodHandle EVENTFD = errnoCall("eventfd", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle READ = errnoCall("read", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle WRITE = errnoCall("write", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle STRERROR = call("strerror", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle GETPAGESIZE = call("getpagesize", FunctionDescriptor.of(ValueLayout.JAVA_INT));

    public static final int EPOLL_CLOEXEC = 0x80000;
    public static final int EPOLL_CTL_ADD = 1;
    public static final int EPOLL_CTL_DEL = 2;
    public static final int EPOLLIN = 0x1;
    public static final int EPOLLERR = 0x8;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;
    /** struct epoll_event: packed on x86-64 (events, then the data at byte 4), aligned elsewhere (the data at byte 8). */
    public static final boolean PACKED_EPOLL_EVENT = "amd64".equals(System.getProperty("os.arch")) || "x86_64".equals(System.getProperty("os.arch"));
    public static final int EPOLL_EVENT_BYTES = PACKED_EPOLL_EVENT ? 12 : 16;
    public static final int EPOLL_EVENT_DATA = PACKED_EPOLL_EVENT ? 4 : 8;

    /** Where the calls of one thread leave errno; each thread that makes calls has its own. */
    private final MemorySegment state;
    /** The same thread's reading of the kernel's clocks, for the receive time the kernel stamps a frame with. */
    private final KernelClocks clocks;

    public LinuxCalls(final Arena arena) {
        this.state = arena.allocate(CALL_STATE);
        this.clocks = new KernelClocks(arena);
    }

    public KernelClocks clocks() {
        return clocks;
    }

    private static MethodHandle call(final String name, final FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LIBC.find(name).orElseThrow(), descriptor);
    }

    private static MethodHandle errnoCall(final String name, final FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LIBC.find(name).orElseThrow(), descriptor, CAPTURE_ERRNO);
    }

    /** errno as the last failed call of this object left it. */
    public int errno() {
        return (int) ERRNO.get(state, 0L);
    }

    /** Bytes of a page of memory: the unit of a receive ring's blocks. */
    public static int pageSize() {
        try {
            return (int) GETPAGESIZE.invokeExact();
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The C library's words for an errno value. */
    public static String describe(final int errno) {
        try {
            final MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (final Throwable e) {
            return "errno " + errno;
        }
    }

    public int socket(final int domain, final int type, final int protocol) {
        try {
            return (int) SOCKET.invokeExact(state, domain, type, protocol);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public int setsockopt(final int fd, final int level, final int option, final MemorySegment value) {
        try {
            return (int) SETSOCKOPT.invokeExact(state, fd, level, option, value, (int) value.byteSize());
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads an option into {@code value}, whose size {@code length} holds (and gets back what the kernel wrote). */
    public int getsockopt(final int fd, final int level, final int option, final MemorySegment value, final MemorySegment length) {
        try {
            return (int) GETSOCKOPT.invokeExact(state, fd, level, option, value, length);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public int bind(final int fd, final MemorySegment address) {
        try {
            return (int) BIND.invokeExact(state, fd, address, (int) address.byteSize());
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Maps {@code bytes} of the socket's ring, shared with the kernel; NULL's address minus one on failure. */
    public MemorySegment mmap(final int fd, final long bytes) {
        try {
            return (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, bytes, PROT_READ_WRITE, MAP_SHARED, fd, 0L);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static void munmap(final MemorySegment mapping, final long bytes) {
        try {
            final int ignored = (int) MUNMAP.invokeExact(mapping, bytes);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static void close(final int fd) {
        try {
            final int ignored = (int) CLOSE.invokeExact(fd);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public int ioctl(final int fd, final long request, final MemorySegment argument) {
        try {
            return (int) IOCTL.invokeExact(state, fd, request, argument);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static int ifNameToIndex(final MemorySegment name) {
        try {
            return (int) IF_NAMETOINDEX.invokeExact(name);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Receives one message into {@code bytes} at {@code buffer} without blocking; its length, or -1 with errno set. */
    public long recv(final int fd, final long buffer, final long bytes) {
        try {
            return (long) RECV.invokeExact(state, fd, buffer, bytes, MSG_DONTWAIT);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Receives one message into {@code bytes} at {@code buffer}, waiting as the socket's receive timeout allows. */
    public long recvWaiting(final int fd, final long buffer, final long bytes) {
        try {
            return (long) RECV.invokeExact(state, fd, buffer, bytes, 0);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code message} whole; the bytes sent, or -1 with errno set. */
    public long send(final int fd, final MemorySegment message) {
        try {
            return (long) SEND.invokeExact(state, fd, message, message.byteSize(), 0);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads and so clears the socket's pending error (the kernel sets ENETDOWN on a packet socket whose interface went
     * down): left pending, it fails the next send and keeps epoll reporting EPOLLERR. {@code scratch} holds 8 bytes.
     */
    public int clearError(final int fd, final MemorySegment scratch) {
        scratch.set(ValueLayout.JAVA_INT, 4, 4);
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, scratch.asSlice(0, 4), scratch.asSlice(4, 4)) == 0 ? scratch.get(ValueLayout.JAVA_INT, 0) : 0;
    }

    /** Sends up to {@code count} messages without blocking; how many went, or -1 with errno set. */
    public int sendmmsg(final int fd, final long messages, final int count) {
        try {
            final int sent = (int) SENDMMSG.invokeExact(fd, messages, count, MSG_DONTWAIT);
            if (sent < 0) {
                ERRNO.set(state, 0L, ThreadErrno.read());
            }
            return sent;
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public int epollCreate() {
        try {
            return (int) EPOLL_CREATE1.invokeExact(state, EPOLL_CLOEXEC);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds or removes {@code fd} with the epoll_event at {@code event}; 0, or -1 with errno set. */
    public int epollCtl(final int epoll, final int operation, final int fd, final long event) {
        try {
            return (int) EPOLL_CTL.invokeExact(state, epoll, operation, fd, event);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits for events at most as long as the timespec at {@code timeout} says, which holds {@code nanos} (0 and -1: for
     * ever); how many, or -1 with errno set. Without epoll_pwait2 (an older C library or kernel), epoll_wait waits the
     * nanoseconds rounded up to whole milliseconds.
     */
    public int epollWait(final int epoll, final long events, final int maxEvents, final long timeout, final long nanos) {
        try {
            if (!noPwait2) {
                final int ready = (int) EPOLL_PWAIT2.invokeExact(state, epoll, events, maxEvents, timeout, 0L);
                if (ready >= 0 || errno() != ENOSYS) {
                    return ready;
                }
                noPwait2 = true;
            }
            final int millis = timeout == 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
            return (int) EPOLL_WAIT.invokeExact(state, epoll, events, maxEvents, millis);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public int eventFd() {
        try {
            return (int) EVENTFD.invokeExact(state, 0, EFD_NONBLOCK | EFD_CLOEXEC);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public long read(final int fd, final long buffer, final long bytes) {
        try {
            return (long) READ.invokeExact(state, fd, buffer, bytes);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public long write(final int fd, final long buffer, final long bytes) {
        try {
            return (long) WRITE.invokeExact(state, fd, buffer, bytes);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
