package io.trimswitch.interfaces.afpacket;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.interfaces.EthernetInterfaces;
import io.trimswitch.interfaces.InterfaceSocket;
import io.trimswitch.interfaces.LinuxCalls;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One switch port on a Linux interface: an AF_PACKET socket bound to it, in promiscuous mode, with a memory-mapped
 * TPACKET_V2 receive ring (per-frame slots: V3's blocks hand frames over only when full or after a timeout of a
 * millisecond or more). The ring's slots fit a frame of the interface's MTU as it is at opening
 * ({@link RingGeometry}), so that many of them absorb a host's burst in little memory; a longer frame (a TCP/UDP segmentation-offload frame of up to 64 KB, which PACKET_VNET_HDR keeps whole behind its
 * {@link OffloadHeader}) leaves a cut copy in its slot and waits whole in the socket's queue (PACKET_COPY_THRESH), from
 * which it is read in its turn. PACKET_QDISC_BYPASS sends straight to the driver; PACKET_IGNORE_OUTGOING keeps the
 * frames the switch sends out of the port off its own ring. Opening fails with one line that says why.
 */
final class PacketSocket extends InterfaceSocket {
    /** Room in the socket's queue for the frames too long for a slot: a few dozen 64 KB offload frames. */
    private static final int QUEUE_BYTES = 4 << 20;
    /** struct tpacket2_hdr, as the kernel writes it at the start of each slot. */
    private static final int TP_STATUS = 0;
    private static final int TP_LEN = 4;
    private static final int TP_SNAPLEN = 8;
    private static final int TP_MAC = 12;
    /** When the kernel took the frame, by the wall clock (CLOCK_REALTIME): seconds and nanoseconds, each a u32. */
    private static final int TP_SEC = 16;
    private static final int TP_NSEC = 20;
    private static final int TP_STATUS_USER = 1;
    private static final int TP_STATUS_COPY = 2;
    private static final int TP_STATUS_VLAN_VALID = 0x10;
    private static final int TP_STATUS_KERNEL = 0;

    /** PACKET_FANOUT: frames shared out among a group's sockets, by the flow's hash; the first asks for a new group. */
    private static final int PACKET_FANOUT = 18;
    private static final int PACKET_FANOUT_HASH = 0;
    private static final int PACKET_FANOUT_FLAG_UNIQUEID = 0x2000;

    private final RingGeometry geometry;
    private final MemorySegment ring;
    private final UnsafeBuffer slots;
    /** The next slot to read: its number within its block, and where it starts in the ring. */
    private int nextInBlock;
    private int nextSlot;

    private PacketSocket(final String name, final int index, final int mtu, final int fd, final RingGeometry geometry, final MemorySegment ring) {
        super(name, index, mtu, fd);
        this.geometry = geometry;
        this.ring = ring;
        this.slots = new UnsafeBuffer(ring.address(), (int) geometry.bytes());
    }

    @Override
    public String describe() {
        return "AF_PACKET";
    }

    /** PACKET_VNET_HDR: the kernel segments and completes what the offload header asks for. */
    @Override
    public boolean carriesOffload() {
        return true;
    }

    @Override
    public int send(final LinuxCalls calls, final UnsafeBuffer messages, final int from, final int count) {
        final int sent = calls.sendmmsg(fd, messages.addressOffset() + (long) from * LinuxCalls.MMSGHDR_BYTES, count);
        return sent >= 0 ? sent : -calls.errno();
    }


    /**
     * Opens {@code interfaceName} as a port; {@code mustBeUp}: refuse an interface that is administratively down (at
     * start, the user is told; a port re-attached to a re-made interface waits for it to come up instead).
     *
     * @throws IllegalStateException with one line naming the interface and the reason
     */
    static PacketSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment cName = scratch.allocateFrom(interfaceName);
            final int index = LinuxCalls.ifNameToIndex(cName);
            if (index == 0) {
                throw new IllegalStateException("interface " + interfaceName + " does not exist here (ip link show)");
            }
            // No protocol until bound: the socket must not see other interfaces' frames in between.
            final int fd = calls.socket(LinuxCalls.AF_PACKET, LinuxCalls.SOCK_RAW, 0);
            if (fd < 0) {
                final int errno = calls.errno();
                throw new IllegalStateException("interface " + interfaceName + ": cannot open a packet socket: " + LinuxCalls.describe(errno)
                    + (errno == LinuxCalls.EPERM || errno == LinuxCalls.EACCES ? " (needs CAP_NET_RAW: run as root)" : ""));
            }
            try {
                final int mtu = EthernetInterfaces.checkedMtu(calls, fd, cName, interfaceName, mustBeUp, scratch);
                option(calls, fd, LinuxCalls.PACKET_VERSION, LinuxCalls.TPACKET_V2, scratch, interfaceName, "TPACKET_V2");
                option(calls, fd, LinuxCalls.PACKET_VNET_HDR, 1, scratch, interfaceName, "PACKET_VNET_HDR");
                option(calls, fd, LinuxCalls.PACKET_QDISC_BYPASS, 1, scratch, interfaceName, "PACKET_QDISC_BYPASS");
                option(calls, fd, LinuxCalls.PACKET_IGNORE_OUTGOING, 1, scratch, interfaceName, "PACKET_IGNORE_OUTGOING");
                option(calls, fd, LinuxCalls.PACKET_COPY_THRESH, 1, scratch, interfaceName, "PACKET_COPY_THRESH");
                queueBytes(calls, fd, scratch, interfaceName);
                final RingGeometry geometry = RingGeometry.forMtu(mtu, LinuxCalls.pageSize());
                final long ringBytes = geometry.bytes();
                final MemorySegment ringRequest = scratch.allocate(LinuxCalls.TPACKET_REQ_BYTES);
                ringRequest.set(ValueLayout.JAVA_INT, 0, geometry.blockBytes());
                ringRequest.set(ValueLayout.JAVA_INT, 4, geometry.blocks());
                ringRequest.set(ValueLayout.JAVA_INT, 8, geometry.slotBytes());
                ringRequest.set(ValueLayout.JAVA_INT, 12, geometry.frames());
                EthernetInterfaces.check(calls, calls.setsockopt(fd, LinuxCalls.SOL_PACKET, LinuxCalls.PACKET_RX_RING, ringRequest), interfaceName, "set up its receive ring");
                final MemorySegment mapped = calls.mmap(fd, ringBytes);
                if (mapped.address() == -1L) {
                    EthernetInterfaces.check(calls, -1, interfaceName, "map its receive ring");
                }
                final MemorySegment address = scratch.allocate(LinuxCalls.SOCKADDR_LL_BYTES);
                address.set(ValueLayout.JAVA_SHORT, 0, (short) LinuxCalls.AF_PACKET);
                address.set(ValueLayout.JAVA_SHORT, 2, LinuxCalls.ETH_P_ALL_BE);
                address.set(ValueLayout.JAVA_INT, 4, index);
                if (calls.bind(fd, address) != 0) {
                    LinuxCalls.munmap(mapped, ringBytes);
                    EthernetInterfaces.check(calls, -1, interfaceName, "bind to it");
                }
                final MemorySegment membership = scratch.allocate(LinuxCalls.PACKET_MREQ_BYTES);
                membership.set(ValueLayout.JAVA_INT, 0, index);
                membership.set(ValueLayout.JAVA_SHORT, 4, (short) LinuxCalls.PACKET_MR_PROMISC);
                if (calls.setsockopt(fd, LinuxCalls.SOL_PACKET, LinuxCalls.PACKET_ADD_MEMBERSHIP, membership) != 0) {
                    LinuxCalls.munmap(mapped, ringBytes);
                    EthernetInterfaces.check(calls, -1, interfaceName, "make it promiscuous");
                }
                return new PacketSocket(interfaceName, index, mtu, fd, geometry, mapped.reinterpret(ringBytes));
            } catch (final RuntimeException e) {
                LinuxCalls.close(fd);
                throw e;
            }
        }
    }

    /**
     * Joins fanout group {@code group} of the interface's packet sockets (0: a new group the kernel numbers), which
     * shares the interface's frames out among its sockets by their flow's hash; the group's number.
     *
     * @throws IllegalStateException with one line naming the interface and the reason
     */
    int joinFanout(final LinuxCalls calls, final int group) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment value = scratch.allocate(ValueLayout.JAVA_INT);
            value.set(ValueLayout.JAVA_INT, 0, group | (PACKET_FANOUT_HASH | (group == 0 ? PACKET_FANOUT_FLAG_UNIQUEID : 0)) << 16);
            EthernetInterfaces.check(calls, calls.setsockopt(fd, LinuxCalls.SOL_PACKET, PACKET_FANOUT, value), name, "join its sockets' fanout group");
            final MemorySegment length = scratch.allocate(ValueLayout.JAVA_INT);
            length.set(ValueLayout.JAVA_INT, 0, 4);
            EthernetInterfaces.check(calls, calls.getsockopt(fd, LinuxCalls.SOL_PACKET, PACKET_FANOUT, value, length), name, "read its fanout group");
            return value.get(ValueLayout.JAVA_INT, 0) & 0xFFFF;
        }
    }

    /** Past net.core.rmem_max where the switch may (CAP_NET_ADMIN), else as far as it goes. */
    private static void queueBytes(final LinuxCalls calls, final int fd, final Arena scratch, final String interfaceName) {
        final MemorySegment integer = scratch.allocate(ValueLayout.JAVA_INT);
        integer.set(ValueLayout.JAVA_INT, 0, QUEUE_BYTES);
        if (calls.setsockopt(fd, LinuxCalls.SOL_SOCKET, LinuxCalls.SO_RCVBUFFORCE, integer) != 0) {
            EthernetInterfaces.check(calls, calls.setsockopt(fd, LinuxCalls.SOL_SOCKET, LinuxCalls.SO_RCVBUF, integer), interfaceName, "size its queue");
        }
    }

    private static void option(
        final LinuxCalls calls, final int fd, final int option, final int value, final Arena scratch, final String interfaceName, final String what) {
        final MemorySegment integer = scratch.allocate(ValueLayout.JAVA_INT);
        integer.set(ValueLayout.JAVA_INT, 0, value);
        EthernetInterfaces.check(calls, calls.setsockopt(fd, LinuxCalls.SOL_PACKET, option, integer), interfaceName, "set " + what);
    }

    /**
     * Hands up to {@code budget} frames from the ring to {@code receiver}, oldest first; how many there were. A frame too
     * long for its slot is read whole from the socket's queue into {@code longFrame} (its offload header first).
     */
    @Override
    public int receive(final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        int taken = 0;
        while (taken < budget) {
            final int slot = nextSlot;
            // Acquire: the frame's bytes are the kernel's until it has set the status, and then they are complete.
            final int status = slots.getIntVolatile(slot + TP_STATUS);
            if ((status & TP_STATUS_USER) == 0) {
                break;
            }
            final int length = slots.getInt(slot + TP_LEN);
            final int captured = slots.getInt(slot + TP_SNAPLEN);
            final long receivedNanos = calls.clocks().monotonicAt(Integer.toUnsignedLong(slots.getInt(slot + TP_SEC)),
                Integer.toUnsignedLong(slots.getInt(slot + TP_NSEC)));
            if ((status & TP_STATUS_COPY) != 0) {
                final long read = calls.recv(fd, longFrame.addressOffset(), longFrame.capacity());
                if (read > OffloadHeader.LENGTH && read < longFrame.capacity()) {
                    receiver.onFrame(longFrame, OffloadHeader.LENGTH, (int) read - OffloadHeader.LENGTH, receivedNanos);
                } else {
                    receiver.onTruncated();
                }
            } else if (captured < length) {
                // Too long for a slot, and no room left in the socket's queue for the whole frame.
                receiver.onTruncated();
            } else if ((status & TP_STATUS_VLAN_VALID) != 0) {
                receiver.onVlanStripped();
            } else {
                receiver.onFrame(slots, slot + (slots.getShort(slot + TP_MAC) & 0xFFFF), length, receivedNanos);
            }
            // Release: the slot goes back to the kernel only once its bytes have been read.
            slots.putIntOrdered(slot + TP_STATUS, TP_STATUS_KERNEL);
            advance();
            taken++;
        }
        return taken;
    }

    /** On to the next slot: the next in its block, or the first of the next block (past the block's unused end). */
    private void advance() {
        if (++nextInBlock < geometry.slotsPerBlock()) {
            nextSlot += geometry.slotBytes();
            return;
        }
        nextInBlock = 0;
        nextSlot = nextSlot - (geometry.slotsPerBlock() - 1) * geometry.slotBytes() + geometry.blockBytes();
        if (nextSlot == geometry.bytes()) {
            nextSlot = 0;
        }
    }

    /**
     * Frames the kernel dropped because the ring was full since the last call (the kernel counts them until read).
     * Any thread may call it; the kernel resets its count as it answers.
     */
    @Override
    public long ringDrops(final LinuxCalls calls) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment counts = scratch.allocate(8);
            final MemorySegment length = scratch.allocate(ValueLayout.JAVA_INT);
            length.set(ValueLayout.JAVA_INT, 0, 8);
            if (calls.getsockopt(fd, LinuxCalls.SOL_PACKET, LinuxCalls.PACKET_STATISTICS, counts, length) != 0) {
                return 0;
            }
            return Integer.toUnsignedLong(counts.get(ValueLayout.JAVA_INT, 4));
        }
    }

    @Override
    public void close() {
        LinuxCalls.munmap(ring, geometry.bytes());
        LinuxCalls.close(fd);
    }
}
