package io.trimswitch.sockets;

import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shard's UDP ports on loopback, their loop driven by a thread of the test's as a shard drives it: a datagram of the
 * port's own host and VNI comes in as its frame, anything else is counted by why, and a frame sent goes to the port's
 * host inside a VXLAN header.
 */
class VxlanPortsTest {
    private static final int VNI = 42;
    /** Port 0 knows its host; port 1 learns it from the first datagram. */
    private final DatagramChannel host = open("127.0.0.1");
    private final VxlanPorts ports = new VxlanPorts(List.of(
        new VxlanPorts.Endpoint(0, new InetSocketAddress("127.0.0.1", 0), address(host), 0, VNI),
        new VxlanPorts.Endpoint(1, new InetSocketAddress("127.0.0.1", 0), null, 4789, VNI)), new Frames(), false,
        CounterRegistry.inMemory(64), "sockets-0");
    private final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
    /** What the ports' thread is asked to do on its next turn. */
    private final ConcurrentLinkedQueue<Runnable> onThread = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;
    private final Thread driver = new Thread(() -> {
        while (!stopping) {
            ports.poll();
            for (Runnable task = onThread.poll(); task != null; task = onThread.poll()) {
                task.run();
            }
            Thread.onSpinWait();
        }
        ports.close();
    }, "ports");

    VxlanPortsTest() {
        ports.bind(driver);
        driver.start();
        ports.awaitBound();
    }

    @AfterEach
    void stop() throws Exception {
        stopping = true;
        driver.join(5_000);
        host.close();
    }

    @Test
    void aDatagramOfThePortsHostAndVniComesInAsItsFrameAlone() throws Exception {
        final byte[] frame = frame(60, 7);
        host.send(ByteBuffer.wrap(datagram(VNI, frame)), ports.localAddress(0));
        await(() -> !received.isEmpty(), "the frame came in");
        assertArrayEquals(frame, received.poll());
    }

    @Test
    void aDatagramOfAnotherVniOrWithoutItsFlagIsCountedAndGoesNoFurther() throws Exception {
        host.send(ByteBuffer.wrap(datagram(VNI + 1, frame(60, 1))), ports.localAddress(0));
        final byte[] unflagged = datagram(VNI, frame(60, 2));
        unflagged[0] = 0;
        host.send(ByteBuffer.wrap(unflagged), ports.localAddress(0));
        await(() -> ports.dropped(0, DropReason.WRONG_VNI) == 1 && ports.dropped(0, DropReason.BAD_VXLAN_FLAGS) == 1, "both counted");
        assertTrue(received.isEmpty());
    }

    @Test
    void aPortLearnsItsHostFromTheFirstDatagramAndNoOtherHostTakesItOver() throws Exception {
        try (DatagramChannel other = open("127.0.0.2")) {
            host.send(ByteBuffer.wrap(datagram(VNI, frame(60, 1))), ports.localAddress(1));
            await(() -> received.size() == 1, "the first host's frame came in");
            other.send(ByteBuffer.wrap(datagram(VNI, frame(60, 2))), ports.localAddress(1));
            await(() -> ports.dropped(1, DropReason.WRONG_SOURCE) == 1, "the other host's datagram is counted as from the wrong source");
            assertEquals(1, received.size());
        }
    }

    @Test
    void aFrameSentGoesToThePortsHostInsideAVxlanHeaderAtTheFlush() throws Exception {
        final byte[] frame = frame(100, 9);
        onThread.add(() -> {
            ports.send(0, new UnsafeBuffer(frame), 0, frame.length);
            ports.flush();
        });
        final ByteBuffer in = ByteBuffer.allocate(2048);
        host.configureBlocking(true);
        host.socket().setSoTimeout(5_000);
        host.receive(in);
        in.flip();
        final byte[] got = new byte[in.remaining()];
        in.get(got);
        assertEquals(VNI, VxlanHeader.vni(new UnsafeBuffer(got), 0));
        assertArrayEquals(frame, java.util.Arrays.copyOfRange(got, VxlanHeader.LENGTH, got.length));
    }

    private final class Frames implements VxlanPorts.FrameHandler {
        @Override
        public void onFrame(final int port, final UnsafeBuffer buffer, final int offset, final int length) {
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            received.add(copy);
        }

        @Override
        public void onBatchEnd() {
        }
    }

    private static byte[] frame(final int length, final int fill) {
        final byte[] frame = new byte[length];
        java.util.Arrays.fill(frame, (byte) fill);
        return frame;
    }

    private static byte[] datagram(final int vni, final byte[] frame) {
        final byte[] datagram = new byte[VxlanHeader.LENGTH + frame.length];
        VxlanHeader.write(new UnsafeBuffer(datagram), 0, vni);
        System.arraycopy(frame, 0, datagram, VxlanHeader.LENGTH, frame.length);
        return datagram;
    }

    private static DatagramChannel open(final String address) {
        try {
            return DatagramChannel.open().bind(new InetSocketAddress(address, 0));
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static InetSocketAddress address(final DatagramChannel channel) {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void await(final BooleanSupplier done, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " within 5 s");
            Thread.sleep(5);
        }
    }
}
