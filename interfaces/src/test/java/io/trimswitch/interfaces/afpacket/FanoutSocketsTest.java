package io.trimswitch.interfaces.afpacket;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An {@code af_packet} port of two queues on a veth whose other end sits in a network namespace the test makes: its two
 * packet sockets share the flows the other end sends, each flow on one of them, and every frame arrives on one queue or
 * the other, once. Needs root: elsewhere skipped.
 */
class FanoutSocketsTest {
    private final String suffix = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String inside = "tsfn" + suffix;
    private final String port = "tsfa" + suffix;
    private final Arena arena = Arena.ofConfined();
    private final LinuxCalls calls = new LinuxCalls(arena);
    private PortSocket socket;

    @BeforeEach
    void makeVeth() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "a packet socket needs root");
        assumeTrue(run("ip", "netns", "add", inside) == 0, "cannot make a network namespace here");
        run("ip", "netns", "exec", inside, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
        run("ip", "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", inside);
        run("sysctl", "-qw", "net.ipv6.conf." + port + ".disable_ipv6=1");
        run("ip", "link", "set", port, "up");
        run("ip", "netns", "exec", inside, "ip", "link", "set", "eth0", "up");
        run("ip", "netns", "exec", inside, "ip", "addr", "add", "10.217.0.1/24", "dev", "eth0");
        run("ip", "netns", "exec", inside, "ip", "neigh", "add", "10.217.0.2", "lladdr", "02:00:00:00:00:02", "dev", "eth0");
    }

    @AfterEach
    void remove() throws Exception {
        if (socket != null) {
            socket.close();
        }
        arena.close();
        run("ip", "link", "del", port);
        run("ip", "netns", "del", inside);
    }

    private static int run(final String... words) throws Exception {
        return new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    @Test
    void twoSocketsShareTheFlowsAndEveryFrameArrivesOnce() throws Exception {
        socket = new AfPacket().open(port, calls, true, 2);
        assertEquals(2, socket.queues());
        assertEquals("AF_PACKET, 2 queues in a PACKET_FANOUT group", socket.describe());
        final long sentAfter = System.nanoTime();
        final String send = "import socket\n"
            + "for i in range(64):\n"
            + "    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            + "    s.bind(('10.217.0.1', 22000 + i))\n"
            + "    for j in range(5):\n"
            + "        s.sendto(b'x' * 18, ('10.217.0.2', 9))\n";
        assertEquals(0, run("ip", "netns", "exec", inside, "/usr/bin/python3", "-c", send), "the flows were sent");
        final MemorySegment longFrameBytes = arena.allocate(PortSocket.LONG_FRAME_BYTES + 1, 64);
        final UnsafeBuffer longFrame = new UnsafeBuffer(longFrameBytes.address(), (int) longFrameBytes.byteSize());
        final long[] perQueue = new long[2];
        final Counting receiver = new Counting();
        final long end = System.nanoTime() + 2_000_000_000L;
        while (perQueue[0] + perQueue[1] < 64 * 5 && System.nanoTime() < end) {
            calls.clocks().sample();
            for (int queue = 0; queue < 2; queue++) {
                perQueue[queue] += socket.receive(queue, receiver, 64, calls, longFrame);
            }
        }
        assertEquals(64 * 5, perQueue[0] + perQueue[1], "every frame once, on one queue or the other");
        assertTrue(perQueue[0] > 0 && perQueue[1] > 0, "the flows are shared out: " + perQueue[0] + " and " + perQueue[1]);
        assertEquals(0, socket.ringDrops(calls));
        // The kernel's receive time, in the host's monotonic clock: after the sending began, before the last read.
        assertTrue(receiver.earliestNanos >= sentAfter - CLOCK_SLACK_NANOS && receiver.latestNanos <= System.nanoTime() + CLOCK_SLACK_NANOS,
            receiver.earliestNanos + " to " + receiver.latestNanos + " against " + sentAfter);
    }

    /** How far the wall clock's reading and a slew between two samples may move a stamp. */
    private static final long CLOCK_SLACK_NANOS = 2_000_000;

    /** Takes frames and keeps only their receive times' span: the socket's own return says how many. */
    private static final class Counting implements PortSocket.Receiver {
        long earliestNanos = Long.MAX_VALUE;
        long latestNanos = Long.MIN_VALUE;

        @Override
        public void onFrame(final UnsafeBuffer ring, final int frame, final int length, final long receivedNanos) {
            earliestNanos = Math.min(earliestNanos, receivedNanos);
            latestNanos = Math.max(latestNanos, receivedNanos);
        }

        @Override
        public void onTruncated() {
        }

        @Override
        public void onVlanStripped() {
        }
    }
}
