package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.interfaces.InterfacePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two {@code af_xdp} ports over one piece of the pool (one UMEM, registered once and shared): a frame arrives in a pool
 * buffer of the piece and leaves the other port from that same buffer; ports closed and opened again in any order,
 * the registrant first, keep receiving; every buffer lent to the kernel comes back when the ports close. Needs root
 * and a kernel with AF_XDP: elsewhere skipped, with the reason.
 */
class SharedUmemTest {
    private static final int FRAMES = 8 * PacketPool.SLOTS_PER_SLAB;
    private final String suffix = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String inside = "tsun" + suffix;
    private final String[] ends = {"tsua" + suffix, "tsub" + suffix};
    private final String[] peers = {"tsuc" + suffix, "tsud" + suffix};
    private final PacketPool pool = PacketPool.withHeadroom(64, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH, FRAMES);
    private final PoolPartition frames = new PoolPartition(pool, pool.umemFirst(), FRAMES);
    private final UmemShare share = new UmemShare(pool, pool.umemFirst(), FRAMES, frames::allocate, frames::free);
    private final Burst burst = new Burst();
    private final InterfacePorts[] ports = new InterfacePorts[2];

    @BeforeEach
    void makeVeths() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "an AF_XDP socket and an XDP program need root");
        assumeTrue(run("ip", "netns", "add", inside) == 0, "cannot make a network namespace here");
        // No IPv6 in the namespace: no neighbour or router solicitation is a frame a test did not send.
        run("ip", "netns", "exec", inside, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
        for (int i = 0; i < 2; i++) {
            run("ip", "link", "add", ends[i], "type", "veth", "peer", "name", peers[i], "netns", inside);
            // Nor on this side: a solicitation sent from here would reach the peer as a frame the test counts as sent.
            run("sysctl", "-qw", "net.ipv6.conf." + ends[i] + ".disable_ipv6=1");
            run("ip", "link", "set", ends[i], "up");
            run("ip", "netns", "exec", inside, "ip", "link", "set", peers[i], "up");
        }
    }

    @AfterEach
    void remove() throws Exception {
        for (int i = 0; i < 2; i++) {
            close(i);
            run("ip", "link", "del", ends[i]);
        }
        run("ip", "netns", "del", inside);
    }

    private static int run(final String... words) throws Exception {
        return new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    private void open(final int port) {
        ports[port] = new InterfacePorts(List.of(new InterfacePorts.Attachment(port, ends[port], new AfXdp().receivingInto(queue -> share), 1)), 2,
            InterfacePorts.Refusals.NONE, pool, pool::allocate, handle -> (frames.owns(handle) ? frames : null).free(handle),
            CounterRegistry.inMemory(64), "sockets-0");
        try {
            ports[port].open();
        } catch (final IllegalStateException e) {
            assumeTrue(!e.getMessage().contains("CONFIG_XDP_SOCKETS") && !e.getMessage().contains("no BPF"), e.getMessage());
            throw e;
        }
        // The first read lends the fill ring its buffers.
        ports[port].receive(burst);
        assertEquals(0, burst.size());
    }

    private void close(final int port) {
        if (ports[port] != null) {
            ports[port].close();
            ports[port] = null;
        }
    }

    /** Sends one frame into port {@code port} from its peer, and returns the handle it arrived in (the burst's only one). */
    private int arriving(final int port, final byte marker) throws Exception {
        final String send = "import socket\n"
            + "s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)\n"
            + "s.bind(('" + peers[port] + "', 0))\n"
            + "s.send(b'\\xff' * 6 + b'\\x02' + b'\\x00' * 5 + b'\\x88\\xb5' + bytes([" + (marker & 0xff) + "]) * 46)\n";
        assertEquals(0, run("ip", "netns", "exec", inside, "/usr/bin/python3", "-c", send), "the frame was sent");
        final long end = System.nanoTime() + 3_000_000_000L;
        while (burst.size() == 0 && System.nanoTime() < end) {
            ports[port].receive(burst);
        }
        assertEquals(1, burst.size(), "the frame arrived on port " + port);
        final int handle = burst.handle(0);
        burst.clear();
        assertTrue(share.holds(handle), "it arrived in a buffer of the piece, handle " + handle);
        assertEquals(60, pool.length(handle));
        assertEquals(marker, pool.buffer(handle).getByte(pool.offset(handle) + 14), "its bytes, where the kernel wrote them");
        return handle;
    }

    private long peerReceived(final int port) throws Exception {
        final Process cat = new ProcessBuilder("ip", "netns", "exec", inside, "cat", "/sys/class/net/" + peers[port] + "/statistics/rx_packets").start();
        final String text = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        cat.waitFor();
        return Long.parseLong(text);
    }

    @Test
    void aFrameArrivesInAPoolBufferAndLeavesTheOtherPortFromIt() throws Exception {
        open(0);
        open(1);
        assertEquals(1, SharedUmem.of(share).registrations(), "the second port shares the first's UMEM");
        final long before = peerReceived(1);
        final int handle = arriving(0, (byte) 7);
        ports[1].send(1, handle);
        ports[1].flush();
        final long end = System.nanoTime() + 3_000_000_000L;
        while (peerReceived(1) == before && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertEquals(before + 1, peerReceived(1), "the frame left port 1");
        assertEquals(1, ports[1].sent(1));
        close(0);
        close(1);
        assertEquals(0, frames.inUse(), "every buffer lent to the kernel, the one sent too, came back");
    }

    @Test
    void aPortWhosePieceHasNoBufferLeftToLendSaysItWaitsForThemUntilSomeComeBack() throws Exception {
        open(0);
        assertFalse(ports[0].waitsForBuffers(), "its fill ring holds every buffer it keeps lent");
        final int[] taken = new int[FRAMES];
        int count = 0;
        for (int handle = frames.allocate(); handle != PacketPool.NO_PACKET; handle = frames.allocate()) {
            taken[count++] = handle;
        }
        open(1);
        assertTrue(ports[1].waitsForBuffers(), "no buffer was free to lend, and no frame can wake its thread");
        assertFalse(ports[0].waitsForBuffers());
        for (int i = 0; i < count; i++) {
            frames.free(taken[i]);
        }
        ports[1].receive(burst);
        assertFalse(ports[1].waitsForBuffers(), "the buffers back, its next read lent them");
    }

    @Test
    void portsRemovedAndAddedBackInAnyOrderKeepReceiving() throws Exception {
        open(0);
        open(1);
        free(arriving(1, (byte) 1));
        // The socket that registered the UMEM goes; the one left shares it with the next.
        close(0);
        open(0);
        free(arriving(0, (byte) 2));
        assertEquals(1, SharedUmem.of(share).registrations(), "shared through the socket still bound");
        close(1);
        close(0);
        assertEquals(0, frames.inUse(), "every buffer lent came back");
        // None left to share through: the memory is registered again.
        open(1);
        free(arriving(1, (byte) 3));
        assertEquals(2, SharedUmem.of(share).registrations());
        open(0);
        free(arriving(0, (byte) 4));
        assertEquals(2, SharedUmem.of(share).registrations());
        close(0);
        close(1);
        assertEquals(0, frames.inUse(), "every buffer lent came back");
    }

    private void free(final int handle) {
        frames.free(handle);
    }
}
