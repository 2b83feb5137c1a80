package io.trimswitch.interfaces.afxdp;

import io.trimswitch.interfaces.LinuxCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The XDP program of an interface with AF_XDP ports, made with bpf(2) alone (no libbpf, no BTF, nothing pinned): a
 * socket map keyed by receive queue, and a program that stamps each frame with the time it came (bpf_ktime_get_ns,
 * CLOCK_MONOTONIC, in the frame's metadata, which copy mode copies into the UMEM just ahead of the frame) and redirects it
 * to the socket of its queue, passing it to the kernel's stack when that queue has none. It is attached through a BPF link, in driver mode where the driver
 * has it, else in generic (skb) mode; closing the link's descriptor, or the switch's end however it comes, detaches it.
 */
final class XdpProgram implements AutoCloseable {
    /** Receive queues a program serves at most: the map's entries. */
    static final int MAX_QUEUES = 64;
    private static final int BPF_MAP_TYPE_XSKMAP = 17;
    private static final int BPF_PROG_TYPE_XDP = 6;
    private static final int BPF_XDP = 37;
    private static final int XDP_FLAGS_SKB_MODE = 2;
    private static final int XDP_FLAGS_DRV_MODE = 4;
    private static final int XDP_PASS = 2;
    private static final int BPF_FUNC_REDIRECT_MAP = 51;
    private static final int BPF_FUNC_KTIME_GET_NS = 5;
    private static final int BPF_FUNC_XDP_ADJUST_META = 54;
    /** Bytes of metadata ahead of each frame: its receive time, a u64 in host nanoseconds. */
    static final int STAMP_BYTES = 8;
    private static final int BPF_PSEUDO_MAP_FD = 1;
    /** Where struct xdp_md holds the frame's start, its metadata's start and its receive queue. */
    private static final int XDP_MD_DATA = 0;
    private static final int XDP_MD_DATA_META = 8;
    private static final int XDP_MD_RX_QUEUE_INDEX = 16;

    private final int map;
    private final int program;
    private final int link;
    /** True in driver mode, false in generic mode. */
    final boolean driverMode;
    /** The queues handed to a socket so far: 0 to this minus 1. */
    private int registered;
    private final XdpCalls calls;

    private XdpProgram(final int map, final int program, final int link, final boolean driverMode, final XdpCalls calls) {
        this.calls = calls;
        this.map = map;
        this.program = program;
        this.link = link;
        this.driverMode = driverMode;
    }

    /**
     * Makes the map and the program and attaches them to the interface at {@code ifindex}.
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    static XdpProgram attach(final String interfaceName, final int ifindex, final XdpCalls calls) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment attr = scratch.allocate(XdpCalls.BPF_ATTR_BYTES, 8);
            attr.set(ValueLayout.JAVA_INT, 0, BPF_MAP_TYPE_XSKMAP);
            attr.set(ValueLayout.JAVA_INT, 4, 4);
            attr.set(ValueLayout.JAVA_INT, 8, 4);
            attr.set(ValueLayout.JAVA_INT, 12, MAX_QUEUES);
            final int map = calls.bpf(XdpCalls.BPF_MAP_CREATE, attr);
            if (map < 0) {
                throw refused(interfaceName, "cannot make its XDP socket map", calls.errno());
            }
            int program = -1;
            try {
                program = load(map, scratch, calls);
                if (program < 0) {
                    throw refused(interfaceName, "cannot load its XDP program", calls.errno());
                }
                int link = link(program, ifindex, XDP_FLAGS_DRV_MODE, scratch, calls);
                final boolean driver = link >= 0;
                if (!driver && calls.errno() != XdpCalls.EBUSY && calls.errno() != XdpCalls.EEXIST) {
                    link = link(program, ifindex, XDP_FLAGS_SKB_MODE, scratch, calls);
                }
                if (link < 0) {
                    final int errno = calls.errno();
                    if (errno == XdpCalls.EBUSY || errno == XdpCalls.EEXIST) {
                        throw new IllegalStateException("interface " + interfaceName + " already has an XDP program (ip link show " + interfaceName
                            + "; remove it with xdp-loader unload " + interfaceName + " --all, or use kind af_packet)");
                    }
                    throw refused(interfaceName, "cannot attach its XDP program", errno);
                }
                return new XdpProgram(map, program, link, driver, calls);
            } catch (final RuntimeException e) {
                if (program >= 0) {
                    LinuxCalls.close(program);
                }
                LinuxCalls.close(map);
                throw e;
            }
        }
    }

    private static IllegalStateException refused(final String interfaceName, final String what, final int errno) {
        final String fix = errno == LinuxCalls.EPERM || errno == LinuxCalls.EACCES ? " (needs CAP_BPF and CAP_NET_ADMIN: run as root)"
            : errno == 38 ? " (the kernel has no BPF: use kind af_packet)" : "";
        return new IllegalStateException("interface " + interfaceName + ": " + what + ": " + LinuxCalls.describe(errno) + fix);
    }

    /**
     * r6 = ctx; r7 = bpf_ktime_get_ns(); if bpf_xdp_adjust_meta(ctx, -8) == 0 and meta + 8 <= data: *(u64 *) meta = r7;
     * then return bpf_redirect_map(map, ctx->rx_queue_index, XDP_PASS). A driver without metadata sends the frame unstamped.
     */
    private static int load(final int map, final Arena scratch, final XdpCalls calls) {
        final int instructions = 19;
        final MemorySegment code = scratch.allocate(instructions * 8L, 8);
        instruction(code, 0, 0xbf, 6, 1, 0, 0);
        instruction(code, 1, 0x85, 0, 0, 0, BPF_FUNC_KTIME_GET_NS);
        instruction(code, 2, 0xbf, 7, 0, 0, 0);
        instruction(code, 3, 0xbf, 1, 6, 0, 0);
        instruction(code, 4, 0xb7, 2, 0, 0, -STAMP_BYTES);
        instruction(code, 5, 0x85, 0, 0, 0, BPF_FUNC_XDP_ADJUST_META);
        // Unstamped, to the redirect, where adjust_meta failed or the metadata would pass the frame's start.
        instruction(code, 6, 0x55, 0, 0, 6, 0);
        instruction(code, 7, 0x61, 2, 6, XDP_MD_DATA, 0);
        instruction(code, 8, 0x61, 3, 6, XDP_MD_DATA_META, 0);
        instruction(code, 9, 0xbf, 4, 3, 0, 0);
        instruction(code, 10, 0x07, 4, 0, 0, STAMP_BYTES);
        instruction(code, 11, 0x2d, 4, 2, 1, 0);
        instruction(code, 12, 0x7b, 3, 7, 0, 0);
        instruction(code, 13, 0x61, 2, 6, XDP_MD_RX_QUEUE_INDEX, 0);
        instruction(code, 14, 0x18, 1, BPF_PSEUDO_MAP_FD, 0, map);
        instruction(code, 15, 0, 0, 0, 0, 0);
        instruction(code, 16, 0xb7, 3, 0, 0, XDP_PASS);
        instruction(code, 17, 0x85, 0, 0, 0, BPF_FUNC_REDIRECT_MAP);
        instruction(code, 18, 0x95, 0, 0, 0, 0);
        final MemorySegment license = scratch.allocateFrom("Dual BSD/GPL");
        final MemorySegment attr = scratch.allocate(XdpCalls.BPF_ATTR_BYTES, 8);
        attr.set(ValueLayout.JAVA_INT, 0, BPF_PROG_TYPE_XDP);
        attr.set(ValueLayout.JAVA_INT, 4, instructions);
        attr.set(ValueLayout.JAVA_LONG, 8, code.address());
        attr.set(ValueLayout.JAVA_LONG, 16, license.address());
        attr.setString(48, "trimswitch_xsk");
        attr.set(ValueLayout.JAVA_INT, 68, BPF_XDP);
        return calls.bpf(XdpCalls.BPF_PROG_LOAD, attr);
    }

    private static void instruction(final MemorySegment code, final int at, final int op, final int dst, final int src, final int offset,
        final int immediate) {
        final long base = at * 8L;
        code.set(ValueLayout.JAVA_BYTE, base, (byte) op);
        code.set(ValueLayout.JAVA_BYTE, base + 1, (byte) ((src << 4) | dst));
        code.set(ValueLayout.JAVA_SHORT_UNALIGNED, base + 2, (short) offset);
        code.set(ValueLayout.JAVA_INT_UNALIGNED, base + 4, immediate);
    }

    private static int link(final int program, final int ifindex, final int flags, final Arena scratch, final XdpCalls calls) {
        final MemorySegment attr = scratch.allocate(XdpCalls.BPF_ATTR_BYTES, 8);
        attr.set(ValueLayout.JAVA_INT, 0, program);
        attr.set(ValueLayout.JAVA_INT, 4, ifindex);
        attr.set(ValueLayout.JAVA_INT, 8, BPF_XDP);
        attr.set(ValueLayout.JAVA_INT, 12, flags);
        return calls.bpf(XdpCalls.BPF_LINK_CREATE, attr);
    }

    /** Frames of receive queue {@code queue} go to the AF_XDP socket {@code socketFd} from now on. */
    void register(final int queue, final int socketFd, final String interfaceName, final XdpCalls calls) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment key = scratch.allocate(ValueLayout.JAVA_INT);
            key.set(ValueLayout.JAVA_INT, 0, queue);
            final MemorySegment value = scratch.allocate(ValueLayout.JAVA_INT);
            value.set(ValueLayout.JAVA_INT, 0, socketFd);
            final MemorySegment attr = scratch.allocate(XdpCalls.BPF_ATTR_BYTES, 8);
            attr.set(ValueLayout.JAVA_INT, 0, map);
            attr.set(ValueLayout.JAVA_LONG, 8, key.address());
            attr.set(ValueLayout.JAVA_LONG, 16, value.address());
            if (calls.bpf(XdpCalls.BPF_MAP_UPDATE_ELEM, attr) != 0) {
                throw refused(interfaceName, "cannot hand queue " + queue + " to its socket", calls.errno());
            }
            registered = Math.max(registered, queue + 1);
        }
    }

    /**
     * Detaches the program and lets go of its sockets at once: the map's entries are deleted first, since the map, freed
     * later by the kernel, would otherwise hold its sockets' queues a while after they are closed.
     */
    @Override
    public void close() {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment key = scratch.allocate(ValueLayout.JAVA_INT);
            final MemorySegment attr = scratch.allocate(XdpCalls.BPF_ATTR_BYTES, 8);
            attr.set(ValueLayout.JAVA_INT, 0, map);
            attr.set(ValueLayout.JAVA_LONG, 8, key.address());
            for (int queue = 0; queue < registered; queue++) {
                key.set(ValueLayout.JAVA_INT, 0, queue);
                calls.bpf(XdpCalls.BPF_MAP_DELETE_ELEM, attr);
            }
        }
        LinuxCalls.close(link);
        LinuxCalls.close(program);
        LinuxCalls.close(map);
    }
}
