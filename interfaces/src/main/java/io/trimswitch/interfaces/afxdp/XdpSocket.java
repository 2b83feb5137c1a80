package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.interfaces.EthernetInterfaces;
import io.trimswitch.interfaces.InterfaceSocket;
import io.trimswitch.interfaces.LinuxCalls;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;

/**
 * A switch port on a Linux interface through AF_XDP: one socket ({@link XdpQueue}) on each of its first {@code queues}
 * receive queues, and the interface's XDP program ({@link XdpProgram}), which hands each socket the frames of its queue
 * (the NIC's RSS spreads the flows over them). The port's thread takes a burst from each queue in turn and sends from the
 * first. A frame of a queue without a socket goes on to the kernel.
 */
final class XdpSocket extends InterfaceSocket {
    /** What a frame carries past its MTU's bytes: an Ethernet header and a VLAN tag. */
    private static final int FRAME_HEADERS = 18;
    private final XdpQueue[] queues;
    private final XdpProgram program;
    private final int[] wakeFds;
    /** The receive queues the interface has, as sysfs lists them (0: not known). */
    private final int interfaceQueues;

    private XdpSocket(final String name, final int index, final int mtu, final XdpQueue[] queues, final XdpProgram program) {
        super(name, index, mtu, queues[0].fd);
        this.queues = queues;
        this.interfaceQueues = receiveQueues(name);
        this.program = program;
        this.wakeFds = new int[queues.length];
        for (int i = 0; i < queues.length; i++) {
            wakeFds[i] = queues[i].fd;
        }
    }

    /**
     * Opens receive queues 0 to {@code queueCount - 1} of {@code interfaceName} as a port, with the interface's own XDP
     * program, each queue over the piece of the pool {@code frames} gives for it (null: a pool of its own).
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    static XdpSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queueCount,
        final IntFunction<UmemShare> frames) {
        final XdpCalls xdp = new XdpCalls(Arena.ofAuto());
        final int index;
        final int mtu;
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment cName = scratch.allocateFrom(interfaceName);
            index = LinuxCalls.ifNameToIndex(cName);
            if (index == 0) {
                throw new IllegalStateException("interface " + interfaceName + " does not exist here (ip link show)");
            }
            mtu = mtu(interfaceName, cName, calls, mustBeUp, scratch);
        }
        final int available = receiveQueues(interfaceName);
        if (available > 0 && queueCount > available) {
            throw new IllegalStateException("interface " + interfaceName + " has " + available + " receive queue" + (available == 1 ? "" : "s")
                + ", fewer than the port's queues: " + queueCount + " (ethtool -l " + interfaceName + "): set queues: " + available + " or fewer");
        }
        final XdpQueue[] queues = new XdpQueue[queueCount];
        XdpProgram program = null;
        try {
            for (int queue = 0; queue < queueCount; queue++) {
                // Calls of its own per queue: each queue may be read on another thread, and errno is per object.
                queues[queue] = XdpQueue.open(interfaceName, index, queue, calls, new XdpCalls(Arena.ofAuto()), frames.apply(queue));
            }
            program = XdpProgram.attach(interfaceName, index, xdp);
            for (int queue = 0; queue < queueCount; queue++) {
                program.register(queue, queues[queue].fd, interfaceName, xdp);
            }
            return new XdpSocket(interfaceName, index, mtu, queues, program);
        } catch (final RuntimeException e) {
            if (program != null) {
                program.close();
            }
            for (final XdpQueue queue : queues) {
                if (queue != null) {
                    queue.close();
                }
            }
            throw e;
        }
    }

    /** The interface's MTU, through a packet socket that is never bound (an AF_XDP socket answers no ioctl). */
    private static int mtu(final String interfaceName, final MemorySegment cName, final LinuxCalls calls, final boolean mustBeUp, final Arena scratch) {
        final int probe = calls.socket(LinuxCalls.AF_PACKET, LinuxCalls.SOCK_RAW | LinuxCalls.SOCK_CLOEXEC, 0);
        EthernetInterfaces.check(calls, probe, interfaceName, "open a socket to read its settings");
        try {
            final int mtu = EthernetInterfaces.checkedMtu(calls, probe, cName, interfaceName, mustBeUp, scratch);
            if (mtu + FRAME_HEADERS > XdpQueue.LONGEST_FRAME) {
                throw new IllegalStateException("interface " + interfaceName + ": MTU " + mtu + " is more than an af_xdp port takes ("
                    + (XdpQueue.LONGEST_FRAME - FRAME_HEADERS) + "): lower it (ip link set " + interfaceName + " mtu 1500) or use kind af_packet");
            }
            return mtu;
        } finally {
            LinuxCalls.close(probe);
        }
    }    /** Says so when the port reads fewer receive queues than its interface has: their frames go to the kernel, not the switch. */
    @Override
    public String describe() {
        return "AF_XDP " + queues[0].mode + ", " + (program.driverMode ? "driver mode" : "generic mode")
            + (interfaceQueues > queues.length ? ", " + queues.length + " of its " + interfaceQueues + " receive queues: set queues: " + interfaceQueues
                + " or the others' frames go to the kernel" : queues.length > 1 ? ", " + queues.length + " queues" : "");
    }

    /** How many receive queues the interface has (/sys/class/net/NAME/queues/rx-N); 0 where sysfs does not say. */
    private static int receiveQueues(final String name) {
        try (java.util.stream.Stream<java.nio.file.Path> entries = java.nio.file.Files.list(java.nio.file.Path.of("/sys/class/net", name, "queues"))) {
            return (int) entries.filter(entry -> entry.getFileName().toString().startsWith("rx-")).count();
        } catch (final java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    /** A pool buffer of the UMEM class: a longer frame is dropped on arrival (rx_dropped) and refused for sending. */
    @Override
    public int longestFrame() {
        return XdpQueue.LONGEST_FRAME;
    }

    @Override
    public boolean carriesOffload() {
        return false;
    }

    @Override
    public int[] wakeFds() {
        return wakeFds;
    }

    @Override
    public int receive(final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        int taken = 0;
        for (final XdpQueue queue : queues) {
            taken += queue.receive(receiver, budget - taken);
        }
        return taken;
    }

    @Override
    public boolean waitsForBuffers() {
        for (final XdpQueue queue : queues) {
            if (queue.waitsForBuffers()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int queues() {
        return queues.length;
    }

    @Override
    public int receive(final int queue, final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        return queues[queue].receive(receiver, budget);
    }

    @Override
    public int queueFd(final int queue) {
        return queues[queue].fd;
    }

    @Override
    public int send(final LinuxCalls calls, final UnsafeBuffer messages, final int from, final int count) {
        return queues[0].send(messages, from, count);
    }

    /** Frames dropped with no room in a full receive ring (rx_ring_full), or too long for a chunk. */
    @Override
    public long ringDrops(final LinuxCalls calls) {
        long drops = 0;
        for (final XdpQueue queue : queues) {
            drops += queue.ringDrops(calls);
        }
        return drops;
    }

    /** Frames that found a fill ring without a chunk (rx_fill_ring_empty_descs), as the last {@link #ringDrops} read them. */
    @Override
    public long fillRingDrops() {
        long drops = 0;
        for (final XdpQueue queue : queues) {
            drops += queue.fillRingDrops();
        }
        return drops;
    }

    @Override
    public void close() {
        program.close();
        for (final XdpQueue queue : queues) {
            queue.close();
        }
    }
}
