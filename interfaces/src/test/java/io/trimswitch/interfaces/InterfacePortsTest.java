package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A port given to a running switch ({@code ctl add-port}), on a dummy interface the test makes: the control thread opens
 * the interface and maps its ring; the ports' thread, which forwards, only takes the ready socket up. Opening a packet
 * socket needs root: elsewhere these tests are skipped.
 */
class InterfacePortsTest {
    private final PacketPool pool = PacketPool.withHeadroom(64, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH);
    private final InterfacePorts ports = new InterfacePorts(List.of(), 4, InterfacePorts.Refusals.NONE, pool, pool::allocate, handle -> { },
        CounterRegistry.inMemory(64), "sockets-0");

    /** A dummy interface (Ethernet, unlike lo) made for the test and removed after it. */
    private final String dummy = "tswd" + ProcessHandle.current().pid() % 100_000;

    @org.junit.jupiter.api.BeforeEach
    void makeDummy() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "opening a packet socket needs CAP_NET_RAW (root)");
        assumeTrue(ip("link", "add", dummy, "type", "dummy") == 0 && ip("link", "set", dummy, "up") == 0, "cannot make a dummy interface here");
    }

    @AfterEach
    void close() throws Exception {
        ports.close();
        ip("link", "del", dummy);
    }

    private static int ip(final String... words) throws Exception {
        final List<String> command = new java.util.ArrayList<>(List.of("ip"));
        command.addAll(List.of(words));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    @Test
    void anInterfaceWithoutEthernetIsRefusedInOneLine() {
        final IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> ports.prepare(3, "lo"));
        assertEquals("interface lo is not an Ethernet interface (loopback); a port needs one: a veth, a NIC, a tap", refused.getMessage());
    }

    private static long openFileDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** Prepares port {@code port} on the dummy interface; skips the test where this process may not open a packet socket. */
    private void prepareOnLoopback(final int port) throws IOException {
        final long before = openFileDescriptors();
        ports.prepare(port, dummy);
        assumeTrue(openFileDescriptors() == before + 1, "opening a packet socket needs CAP_NET_RAW (root)");
    }

    @Test
    void thePortsThreadOpensNothingWhenItTakesUpAPortTheControlThreadOpened() throws Exception {
        final long beforeAll = openFileDescriptors();
        prepareOnLoopback(1);
        final long prepared = openFileDescriptors();
        final Thread portsThread = new Thread(() -> ports.adopt(1, dummy), "sockets-0");
        portsThread.start();
        portsThread.join();
        assertEquals(prepared, openFileDescriptors(), "the ports' thread made no socket of its own");
        assertTrue(ports.attached(1), "port 1 has the socket the control thread opened");
        assertEquals(dummy, ports.interfaceName(1));
        ports.close();
        assertEquals(beforeAll, openFileDescriptors(), "closing the ports closes the socket");
    }

    @Test
    void aSocketOpenedForAPortThatNoRequestTakesIsClosedWithThePorts() throws Exception {
        final long beforeAll = openFileDescriptors();
        prepareOnLoopback(2);
        // Prepared again before its thread took it up (an add-port retried): the first socket is closed at once.
        ports.prepare(2, dummy);
        assertEquals(beforeAll + 1, openFileDescriptors(), "one socket at most waits for the port");
        ports.close();
        assertEquals(beforeAll, openFileDescriptors(), "nothing is left open");
    }
}
