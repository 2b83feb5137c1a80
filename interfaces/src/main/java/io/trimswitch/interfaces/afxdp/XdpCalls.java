package io.trimswitch.interfaces.afxdp;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.ThreadErrno;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The calls an AF_XDP port needs beyond {@link LinuxCalls}: bpf(2) through syscall(2) (no libbpf), mmap at an offset
 * (each of the socket's rings has its own), and the empty sendto/recvfrom that wake the kernel's side of a ring. Like
 * {@link LinuxCalls}, each object keeps errno for the one thread that calls it.
 */
final class XdpCalls {
    static final int AF_XDP = 44;
    static final int SOL_XDP = 283;
    static final int XDP_MMAP_OFFSETS = 1;
    static final int XDP_RX_RING = 2;
    static final int XDP_TX_RING = 3;
    static final int XDP_UMEM_REG = 4;
    static final int XDP_UMEM_FILL_RING = 5;
    static final int XDP_UMEM_COMPLETION_RING = 6;
    static final int XDP_STATISTICS = 7;
    static final int XDP_COPY = 2;
    static final int XDP_ZEROCOPY = 4;
    static final int XDP_USE_NEED_WAKEUP = 8;
    static final int XDP_SHARED_UMEM = 1;
    static final long PGOFF_RX_RING = 0L;
    static final long PGOFF_TX_RING = 0x80000000L;
    static final long PGOFF_FILL_RING = 0x100000000L;
    static final long PGOFF_COMPLETION_RING = 0x180000000L;
    static final int BPF_MAP_CREATE = 0;
    static final int BPF_MAP_UPDATE_ELEM = 2;
    static final int BPF_MAP_DELETE_ELEM = 3;
    static final int BPF_PROG_LOAD = 5;
    static final int BPF_LINK_CREATE = 28;
    /** union bpf_attr, zero past what a command reads: the kernel takes any size up to its own and checks the rest is zero. */
    static final int BPF_ATTR_BYTES = 128;
    static final int EBUSY = 16;
    static final int EEXIST = 17;
    static final int EINVAL = 22;
    static final int EAFNOSUPPORT = 97;
    static final int EOPNOTSUPP = 95;

    private static final int MAP_POPULATE = 0x8000;
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    private static final long SYS_BPF = ARM ? 280 : 321;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LINKER.defaultLookup().find("syscall").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
        CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP = LINKER.downcallHandle(LINKER.defaultLookup().find("mmap").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    /**
     * sendto and recvfrom with no buffer and no address: a kick, which moves no bytes of its own. Made every turn, so
     * errno is read only when one fails ({@link ThreadErrno}): a captured call state is garbage a call.
     */
    private static final MethodHandle SENDTO = LINKER.downcallHandle(LINKER.defaultLookup().find("sendto").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle RECVFROM = LINKER.downcallHandle(LINKER.defaultLookup().find("recvfrom").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));

    private final MemorySegment state;

    XdpCalls(final Arena arena) {
        this.state = arena.allocate(CALL_STATE);
    }

    int errno() {
        return (int) ERRNO.get(state, 0L);
    }

    /** bpf(2): {@code command} with the attributes in {@code attr}; its result (a descriptor, or 0), or -1 with errno set. */
    int bpf(final int command, final MemorySegment attr) {
        try {
            return (int) (long) SYSCALL.invokeExact(state, SYS_BPF, command, attr, (int) attr.byteSize());
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Maps {@code bytes} of the socket's ring at {@code offset}, shared with the kernel; address -1 on failure. */
    MemorySegment mmap(final int fd, final long bytes, final long offset) {
        try {
            return (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, bytes, LinuxCalls.PROT_READ_WRITE, LinuxCalls.MAP_SHARED | MAP_POPULATE, fd,
                offset);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code result}, with errno kept for {@link #errno()} when it says the call failed. */
    private int failed(final int result) {
        if (result < 0) {
            ERRNO.set(state, 0L, ThreadErrno.read());
        }
        return result;
    }

    /** Tells the kernel the send ring has descriptors; 0, or -1 with errno set (EAGAIN, EBUSY: it is still sending). */
    int kickSend(final int fd) {
        try {
            return failed((int) (long) SENDTO.invokeExact(fd, 0L, 0L, LinuxCalls.MSG_DONTWAIT, 0L, 0));
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Tells the kernel the fill ring has buffers again; 0, or -1 with errno set. */
    int kickFill(final int fd) {
        try {
            return failed((int) (long) RECVFROM.invokeExact(fd, 0L, 0L, LinuxCalls.MSG_DONTWAIT, 0L, 0L));
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
