package io.trimswitch.realtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.cli.Cli;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live switch on loopback: three hosts are plain UDP sockets that speak VXLAN to its ports. */
class LiveSwitchTest {
    private static final int VNI = 42;
    private static final long HOST_A = 0x0200_0000_00AAL;
    private static final long HOST_B = 0x0200_0000_00BBL;

    private final DatagramChannel[] hosts = new DatagramChannel[3];
    private LiveSwitch live;
    private SwitchMetrics metrics;

    @TempDir
    Path dir;

    @AfterEach
    void tearDown() throws IOException {
        if (metrics != null) {
            metrics.close();
        }
        if (live != null) {
            live.stop();
        }
        for (final DatagramChannel host : hosts) {
            if (host != null) {
                host.close();
            }
        }
    }

    private void start() throws IOException {
        final SwitchSettings settings = new SwitchSettings();
        settings.fabric.pipelines = 1;
        settings.fabric.portsPerPipeline = 4;
        settings.realtime.idle = "yield";
        for (int port = 0; port < hosts.length; port++) {
            hosts[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            hosts[port].configureBlocking(false);
            final SwitchSettings.UdpPort entry = new SwitchSettings.UdpPort();
            entry.bind = "127.0.0.1:0";
            entry.remote = "127.0.0.1:" + ((InetSocketAddress) hosts[port].getLocalAddress()).getPort();
            entry.vni = VNI;
            settings.ports.add(entry);
        }
        live = new LiveSwitch(settings);
        live.start();
        metrics = new SwitchMetrics(live, new InetSocketAddress("127.0.0.1", 0));
    }

    private byte[] frame(final long source, final long destination) {
        final byte[] frame = new byte[200];
        final UnsafeBuffer buffer = new UnsafeBuffer(frame);
        WorkloadFrames.writeData(buffer, 0, frame.length, 0, 1, 0, 0, 0, 9999);
        EthernetHeader.source(buffer, 0, source);
        EthernetHeader.destination(buffer, 0, destination);
        return frame;
    }

    private void send(final int fromPort, final int flags, final int vni, final byte[] frame) throws IOException {
        final ByteBuffer datagram = ByteBuffer.allocate(VxlanHeader.LENGTH + frame.length);
        final UnsafeBuffer header = new UnsafeBuffer(datagram);
        VxlanHeader.write(header, 0, vni);
        header.putByte(0, (byte) flags);
        datagram.position(VxlanHeader.LENGTH).put(frame).flip();
        hosts[fromPort].send(datagram, live.localAddress(fromPort));
    }

    /** The next datagram the host on {@code port} receives, or null within the time. */
    private byte[] receive(final int port, final long millis) throws IOException, InterruptedException {
        final ByteBuffer datagram = ByteBuffer.allocate(4096);
        final long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (hosts[port].receive(datagram) != null) {
                return Arrays.copyOf(datagram.array(), datagram.position());
            }
            Thread.sleep(2);
        }
        return null;
    }

    @Test
    void aBroadcastFloodsToEveryOtherHostAndTheReplyGoesOnlyWhereItsDestinationWasLearned() throws Exception {
        start();
        final byte[] broadcast = frame(HOST_A, EthernetHeader.BROADCAST);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, broadcast);
        for (final int port : new int[] {1, 2}) {
            final byte[] datagram = receive(port, 2000);
            assertTrue(datagram != null, "port " + port + " floods the broadcast");
            final UnsafeBuffer bytes = new UnsafeBuffer(datagram);
            assertEquals(VxlanHeader.FLAG_VNI_VALID, VxlanHeader.flags(bytes, 0));
            assertEquals(VNI, VxlanHeader.vni(bytes, 0));
            assertArrayEquals(broadcast, Arrays.copyOfRange(datagram, VxlanHeader.LENGTH, datagram.length), "the frame is carried unchanged");
        }
        assertNull(receive(0, 100), "not back where it came from");

        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, HOST_A));
        assertTrue(receive(0, 2000) != null, "host A was learned on port 0");
        assertNull(receive(2, 200), "a known destination is not flooded");
    }

    @Test
    void datagramsThatAreNotFramesForThePortAreCountedByReasonAndNothingElseHappens() throws Exception {
        start();
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, new byte[4]);
        send(0, 0, VNI, frame(HOST_A, HOST_B));
        send(0, VxlanHeader.FLAG_VNI_VALID, 7, frame(HOST_A, HOST_B));
        final byte[] badChecksum = frame(HOST_A, EthernetHeader.BROADCAST);
        new UnsafeBuffer(badChecksum).putByte(EthernetHeader.LENGTH + Ipv4Header.CHECKSUM_FIELD_OFFSET, (byte) 0x55);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, badChecksum);
        Thread.sleep(300);

        final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:" + metrics.port(), "--json");
        assertEquals(0, stats.exit(), stats.err());
        final JsonNode port0 = new ObjectMapper().readTree(stats.out()).get(0);
        assertEquals(0, port0.get("port").asInt());
        assertEquals(4, port0.get("rxDatagrams").asLong());
        assertEquals(1, port0.get("drops").get("tooShort").asLong());
        assertEquals(1, port0.get("drops").get("badVxlanFlags").asLong());
        assertEquals(1, port0.get("drops").get("wrongVni").asLong());
        assertTrue(port0.has("dataQueueDepthP99") && port0.has("headerQueueDepthMax"), "queue depth quantiles: " + port0);
        final long checksumDrops = new ObjectMapper().readTree(stats.out()).findValues("badIpv4Checksum").stream().mapToLong(JsonNode::asLong).sum();
        assertEquals(2, checksumDrops, "the bad-checksum frame, flooded to two ports, is dropped by the pipeline for its checksum: " + stats.out());
        assertNull(receive(1, 100));

        final Cli.Result table = Cli.trimswitch("stats", "--metrics", "127.0.0.1:" + metrics.port());
        assertTrue(table.out().contains("tooShort=1"), table.out());
        live.stop();
        assertEquals(0, live.buffersInUse(), "every buffer is back in the pool");
    }

    @Test
    void badRunConfigurationsAreOneClearLineAndStatsWithNoSwitchSaysSo() throws IOException {
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n  - bind: 127.0.0.1:4790\n", "ports[1].bind 127.0.0.1:4790 clashes with ports[0].bind");
        assertRunFails("ports:\n  - bind: 127.0.0.1\n", "ports[0].bind must be host:port");
        assertRunFails("ports:\n  - bind: no.such.host.invalid:4790\n", "unknown host");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    vnii: 3\n", "unknown key");
        assertRunFails("fabric:\n  portRateGbps: 0\nports:\n  - bind: 127.0.0.1:4790\n", "fabric.portRateGbps must be positive");
        assertRunFails("mechanism: tofino\n", "ports: a switch to run needs at least one port");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nforwarding:\n  mode: hub\n", "forwarding.mode must be one of l2, routed, subnet");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    rateGbps: 0\n", "ports[0].rateGbps must be positive");

        final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:1");
        assertEquals(2, stats.exit());
        assertTrue(stats.err().contains("no switch answers at 127.0.0.1:1"), stats.err());
    }

    @Test
    void theShippedExamplesAreValidSwitches() {
        for (final String example : new String[] {"examples/switch.yaml", "examples/routed.yaml"}) {
            final SwitchSettings settings = io.trimswitch.config.SettingsFiles.load(Path.of(example));
            io.trimswitch.config.LiveSettings.validate(settings);
            assertTrue(!settings.ports.isEmpty(), example);
        }
    }

    private void assertRunFails(final String yaml, final String expected) throws IOException {
        final Path config = dir.resolve("switch-" + Math.abs(yaml.hashCode()) + ".yaml");
        Files.writeString(config, yaml);
        final Cli.Result run = Cli.trimswitch("run", "--config", config.toString(), "--duration-s", "1");
        assertEquals(2, run.exit(), yaml + run.out() + run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains(expected), "expected '" + expected + "' in " + run.err());
    }
}
