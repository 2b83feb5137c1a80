package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.PortPoller;
import io.trimswitch.interfaces.TakenFrames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An {@code af_xdp} port on a veth whose other end sits in a network namespace the test makes: frames sent in the
 * namespace arrive through the port's XDP program and socket; frames the port sends arrive there; closing the port leaves
 * no XDP program on the interface. Needs root and a kernel with AF_XDP: elsewhere skipped, with the reason.
 */
class XdpSocketTest {
    private final String suffix = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String inside = "tsxn" + suffix;
    private final String port = "tsxa" + suffix;
    private final String peer = "tsxb" + suffix;
    private final PacketPool pool = PacketPool.withHeadroom(64, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH);
    private final AtomicInteger arrived = new AtomicInteger();
    private final List<Integer> lengths = new ArrayList<>();
    private final TakenFrames taken = new TakenFrames(pool, (at, buffer, offset, length) -> {
        arrived.incrementAndGet();
        lengths.add(length);
    });
    private InterfacePorts ports;

    @BeforeEach
    void makeVeth() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "an AF_XDP socket and an XDP program need root");
        assumeTrue(run("ip", "netns", "add", inside) == 0, "cannot make a network namespace here");
        // No IPv6 in the namespace: no neighbour or router solicitation is a frame a test did not send.
        run("ip", "netns", "exec", inside, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
        run("ip", "link", "add", port, "type", "veth", "peer", "name", peer, "netns", inside);
        run("ip", "link", "set", port, "up");
        run("ip", "netns", "exec", inside, "ip", "link", "set", peer, "up");
        run("ip", "netns", "exec", inside, "ip", "addr", "add", "10.213.0.1/24", "dev", peer);
    }

    @AfterEach
    void remove() throws Exception {
        if (ports != null) {
            ports.close();
        }
        run("ip", "link", "del", port);
        run("ip", "netns", "del", inside);
    }

    private static int run(final String... words) throws Exception {
        return new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    private static String output(final String... words) throws Exception {
        final Process process = new ProcessBuilder(words).redirectErrorStream(true).start();
        final String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return text;
    }

    private void open() {
        ports = new InterfacePorts(List.of(new InterfacePorts.Attachment(0, port, new AfXdp(), 1)), 2, InterfacePorts.Refusals.NONE, pool,
            pool::allocate, pool::free, CounterRegistry.inMemory(64), "sockets-0");
        ports.open();
        // The port's first read lends its fill ring the buffers to receive into.
        taken.receive(ports);
    }

    /** Opens the port; skips the test on a kernel without AF_XDP sockets or BPF, with the port's own reason. */
    private void openOrSkip() {
        try {
            open();
        } catch (final IllegalStateException e) {
            assumeTrue(!e.getMessage().contains("CONFIG_XDP_SOCKETS") && !e.getMessage().contains("no BPF"), e.getMessage());
            throw e;
        }
    }

    @Test
    void framesSentInTheNamespaceArriveThroughTheXdpProgram() throws Exception {
        openOrSkip();
        assertTrue(output("ip", "link", "show", port).contains("xdp"), "the port's XDP program is attached");
        final long sentAfter = System.nanoTime();
        // ARP requests for an address nobody has: broadcast frames, one a second.
        final Process ping = new ProcessBuilder("ip", "netns", "exec", inside, "ping", "-c", "2", "-i", "0.2", "10.213.0.2")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final long end = System.nanoTime() + 5_000_000_000L;
        while (arrived.get() == 0 && System.nanoTime() < end) {
            taken.receive(ports);
            Thread.onSpinWait();
        }
        ping.waitFor();
        assertTrue(arrived.get() >= 1, "an ARP request arrived");
        assertEquals(42, lengths.get(0), "an ARP request's 42 bytes, whole");
        assertTrue(taken.lastReceivedNanos() > sentAfter && taken.lastReceivedNanos() < System.nanoTime(),
            "the program stamped it with its receive time: " + taken.lastReceivedNanos() + " after " + sentAfter);
        assertEquals(arrived.get(), ports.received(0));
        assertEquals(0, ports.dropped(0, DropReason.RING_OVERFLOW));
    }

    /**
     * A burst larger than the rings while the port's thread is away: what the fill ring's buffers hold arrives; the rest
     * finds the fill ring empty (its buffers are all in the receive ring, which holds twice as many) and is counted as
     * fillRingEmpty, apart from ringOverflow, so that every frame sent is received or counted.
     */
    @Test
    void aBurstPastTheRingsIsCountedAsFillRingEmptyAndEveryFrameIsReceivedOrCounted() throws Exception {
        openOrSkip();
        final int frames = 6000;
        final String send = "import socket\n"
            + "s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)\n"
            + "s.bind(('" + peer + "', 0))\n"
            + "frame = b'\\xff' * 6 + b'\\x02' + b'\\x00' * 5 + b'\\x88\\xb5' + b'\\x00' * 46\n"
            + "for i in range(" + frames + "):\n"
            + "    while True:\n"
            + "        try:\n"
            + "            s.send(frame)\n"
            + "            break\n"
            + "        except BlockingIOError:\n"
            + "            pass\n";
        assertEquals(0, run("ip", "netns", "exec", inside, "/usr/bin/python3", "-c", send), "the burst was sent");
        final long sent = Long.parseLong(output("ip", "netns", "exec", inside, "cat", "/sys/class/net/" + peer + "/statistics/tx_packets").trim());
        long received = 0;
        long overflow = 0;
        long fillEmpty = 0;
        final long end = System.nanoTime() + 3_000_000_000L;
        while (received + overflow + fillEmpty < sent && System.nanoTime() < end) {
            received += taken.receive(ports);
            overflow = ports.dropped(0, DropReason.RING_OVERFLOW);
            fillEmpty = ports.dropped(0, DropReason.FILL_RING_EMPTY);
        }
        assertTrue(sent >= frames, "the other end sent " + sent);
        assertEquals(XdpQueue.FILL_TARGET, received, "the fill ring's buffers, all in the receive ring");
        assertEquals(sent - XdpQueue.FILL_TARGET, fillEmpty, "the rest found the fill ring empty");
        assertEquals(0, overflow, "none found the receive ring full, counted apart");
        assertEquals(ports.received(0), received);
    }

    /**
     * A port on both receive queues of a two-queue veth: UDP flows that the other end spreads over its two send queues all
     * arrive, where the same port on queue 0 alone misses those of queue 1 (they go on to the kernel).
     */
    @Test
    void aPortOnTwoQueuesReceivesTheFlowsOfBoth() throws Exception {
        run("ip", "link", "del", port);
        assumeTrue(run("ip", "link", "add", port, "numtxqueues", "2", "numrxqueues", "2", "type", "veth", "peer", "name", peer, "netns", inside,
            "numtxqueues", "2", "numrxqueues", "2") == 0, "cannot make a veth of two queues here");
        run("ip", "link", "set", port, "up");
        run("ip", "netns", "exec", inside, "ip", "link", "set", peer, "up");
        run("ip", "netns", "exec", inside, "ip", "addr", "add", "10.213.0.1/24", "dev", peer);
        run("ip", "netns", "exec", inside, "ip", "neigh", "add", "10.213.0.2", "lladdr", "02:00:00:00:00:02", "dev", peer);
        assertEquals(64, flowsArriving(1) + missed, "queue 0 alone: every flow counted here or missed");
        assertTrue(ports.describe(0).endsWith(", 1 of its 2 receive queues: set queues: 2 or the others' frames go to the kernel"), ports.describe(0));
        assertTrue(missed > 0, "some of the 64 flows went to queue 1, which a port on queue 0 alone does not read");
        assertEquals(64, flowsArriving(2), "on both queues every flow arrives");
        assertTrue(ports.describe(0).endsWith(", 2 queues"), ports.describe(0));
    }

    /** Frames missed by the last {@link #flowsArriving}: sent by the other end, never received here. */
    private long missed;

    /** Opens the port on {@code queues} queues, sends one datagram from each of 64 sockets (64 flows), and counts arrivals. */
    private long flowsArriving(final int queues) throws Exception {
        if (ports != null) {
            ports.close();
        }
        arrived.set(0);
        ports = new InterfacePorts(List.of(new InterfacePorts.Attachment(0, port, new AfXdp(), queues)), 2, InterfacePorts.Refusals.NONE, pool,
            pool::allocate, pool::free, CounterRegistry.inMemory(64), "sockets-0");
        try {
            ports.open();
        } catch (final IllegalStateException e) {
            assumeTrue(!e.getMessage().contains("CONFIG_XDP_SOCKETS") && !e.getMessage().contains("no BPF"), e.getMessage());
            throw e;
        }
        taken.receive(ports);
        final String send = "import socket\n"
            + "for i in range(64):\n"
            + "    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            + "    s.bind(('10.213.0.1', 20000 + i))\n"
            + "    s.sendto(b'x' * 18, ('10.213.0.2', 9))\n";
        assertEquals(0, run("ip", "netns", "exec", inside, "/usr/bin/python3", "-c", send), "the flows were sent");
        final long end = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
            taken.receive(ports);
            Thread.onSpinWait();
        }
        missed = 64 - arrived.get();
        return arrived.get();
    }

    /** A host's VLAN interface on its veth: the tag travels beside the frame, and reaches the port inside it, never lost. */
    @Test
    void aFrameFromAVlanInterfaceArrivesWithItsTag() throws Exception {
        assumeTrue(run("ip", "netns", "exec", inside, "ip", "link", "add", "link", peer, "name", "v7", "type", "vlan", "id", "7") == 0
            && run("ip", "netns", "exec", inside, "ip", "link", "set", "v7", "up") == 0
            && run("ip", "netns", "exec", inside, "ip", "addr", "add", "10.214.0.1/24", "dev", "v7") == 0, "cannot make a VLAN interface here");
        openOrSkip();
        final Process ping = new ProcessBuilder("ip", "netns", "exec", inside, "ping", "-c", "2", "-i", "0.2", "10.214.0.2")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final long end = System.nanoTime() + 5_000_000_000L;
        while (!lengths.contains(46) && System.nanoTime() < end) {
            taken.receive(ports);
            Thread.onSpinWait();
        }
        ping.waitFor();
        assertTrue(lengths.contains(46), "a tagged ARP request's 46 bytes, tag and all: " + lengths);
    }

    @Test
    void framesThePortSendsArriveInTheNamespace() throws Exception {
        openOrSkip();
        final long before = Long.parseLong(output("ip", "netns", "exec", inside, "cat", "/sys/class/net/" + peer + "/statistics/rx_packets").trim());
        ports.send(0, broadcast(60));
        ports.send(0, broadcast(1514));
        ports.flush();
        final long end = System.nanoTime() + 5_000_000_000L;
        long now = before;
        while (now < before + 2 && System.nanoTime() < end) {
            Thread.sleep(20);
            taken.receive(ports);
            now = Long.parseLong(output("ip", "netns", "exec", inside, "cat", "/sys/class/net/" + peer + "/statistics/rx_packets").trim());
        }
        // At least: the kernel may send a frame of its own out of the port meanwhile (IPv6 neighbour discovery).
        assertTrue(now >= before + 2, "both frames reached the other end: " + (now - before));
        assertEquals(2, ports.sent(0));
        ports.flush();
        assertEquals(0, pool.inUse(), "every buffer went back to the pool");
    }

    /** Sending and receiving in steady state make no garbage: the rings and the UMEM are read and written in place. */
    @Test
    void sendingAndReceivingAllocateNothing() throws Exception {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM does not count allocations per thread");
        openOrSkip();
        // Steady state is once the JIT has compiled the path: windows of 10,000 frames until one allocates nothing.
        long allocated = Long.MAX_VALUE;
        int windows = 0;
        while (allocated >= 1024 && windows < 12) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int round = 0; round < 10_000; round++) {
                ports.send(0, broadcast(60));
                ports.flush();
                taken.receive(ports);
            }
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        }
        assertTrue(allocated < 1024, "10,000 frames sent and the rings polled allocated " + allocated + " bytes, after " + windows + " windows");
        assertEquals(windows * 10_000L, ports.sent(0) + ports.dropped(0, DropReason.TX_BUSY), "every frame sent or counted as txBusy");
    }

    /**
     * A shard sleeps on its port's sockets (their descriptors in its epoll set): with nothing arriving they never wake it,
     * so an idle port costs its thread under 1 % of a core; a frame wakes it at once.
     */
    @Test
    @Tag("host-timing")
    void anIdlePortLetsItsThreadSleepAndAFrameWakesIt() throws Exception {
        openOrSkip();
        try (PortPoller poller = new PortPoller()) {
            ports.wakeOnFrames(new InterfacePorts.Readiness() {
                @Override
                public void watch(final int fd) {
                    poller.addPacketSocket(fd);
                }

                @Override
                public void unwatch(final int fd) {
                    poller.remove(fd);
                }
            });
            final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            final long cpuBefore = threads.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            for (int turn = 0; turn < 10; turn++) {
                taken.receive(ports);
                poller.await(100_000_000L);
            }
            final long slept = System.nanoTime() - start;
            final long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
            assertTrue(slept >= 900_000_000L, "ten sleeps of 100 ms ended early, in " + slept / 1_000_000 + " ms: the port's sockets woke the thread");
            assertTrue(cpu < slept / 100, "idle, the thread took " + cpu / 1_000 + " µs of CPU in " + slept / 1_000_000 + " ms");
            assertEquals(0, arrived.get(), "nothing arrived meanwhile");

            final Process ping = new ProcessBuilder("ip", "netns", "exec", inside, "ping", "-c", "1", "-W", "1", "10.213.0.2")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            final long asleep = System.nanoTime();
            poller.await(5_000_000_000L);
            final long woken = System.nanoTime() - asleep;
            ping.waitFor();
            assertTrue(taken.receive(ports) >= 1 || arrived.get() >= 1, "the ARP request that woke the thread is there to take");
            assumeTrue(woken < 1_000_000_000L, "host too slow: the frame woke the thread after " + woken / 1_000_000 + " ms");
        }
    }

    private int broadcast(final int length) {
        final int handle = pool.allocate();
        final var buffer = pool.buffer(handle);
        final int offset = pool.offset(handle);
        OffloadHeader.clear(buffer, offset - OffloadHeader.LENGTH);
        buffer.setMemory(offset, length, (byte) 0);
        buffer.setMemory(offset, 6, (byte) 0xFF);
        buffer.putByte(offset + 6, (byte) 0x02);
        buffer.putShort(offset + 12, (short) 0xB588);
        pool.length(handle, length);
        return handle;
    }

    @Test
    void closingThePortLeavesNoProgramOnTheInterface() throws Exception {
        openOrSkip();
        ports.close();
        ports = null;
        assertFalse(output("ip", "link", "show", port).contains("xdp"), "no XDP program is left behind");
    }

    @Test
    void aQueueAnotherSocketHoldsIsRefusedInOneLine() throws Exception {
        openOrSkip();
        final InterfacePorts second = new InterfacePorts(List.of(new InterfacePorts.Attachment(0, port, new AfXdp(), 1)), 2,
            InterfacePorts.Refusals.NONE, pool, pool::allocate, pool::free, CounterRegistry.inMemory(64), "sockets-1");
        final IllegalStateException refused = assertThrows(IllegalStateException.class, second::open);
        assertEquals("port 0: interface " + port + ": its receive queue 0 already has an AF_XDP socket (another switch or program holds it: stop"
            + " that one, or use kind af_packet)", refused.getMessage());
    }

    @Test
    void anInterfaceWithAnotherXdpProgramIsRefusedInOneLine() throws Exception {
        final String other = "/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_alw_all.o";
        assumeTrue(java.nio.file.Files.exists(java.nio.file.Path.of(other)), "xdp-tools' programs are not installed");
        assumeTrue(run("xdp-loader", "load", "-m", "native", port, other) == 0, "xdp-loader cannot attach a program here");
        final IllegalStateException refused = assertThrows(IllegalStateException.class, this::open);
        assertEquals("port 0: interface " + port + " already has an XDP program (ip link show " + port + "; remove it with xdp-loader unload "
            + port + " --all, or use kind af_packet)", refused.getMessage());
        assertTrue(output("ip", "link", "show", port).contains("xdpfilt_alw_all"), "the other program stays as it was");
    }
}
