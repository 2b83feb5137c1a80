package io.trimswitch.live.port;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.record.RunRecorder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A live shard's ports with {@code forwarding.mode: l2}, frames handed to them as a kind of port receives them, in a
 * burst of buffers of the shard's: each is taken in once, whatever its destination (learning and flooding are the
 * pipeline's); what no other port should get is counted and goes nowhere.
 */
class LivePortsTest {
    private static final int PORTS = 3;
    private static final long HOST_A = 0x02_00_00_00_00_0aL;
    private static final long HOST_B = 0x02_00_00_00_00_0bL;

    private final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4))
        .withRealtime(x -> x.withDilation(1)).withForwarding(x -> x.withMode(Settings.ForwardingMode.L2))
        .withPorts(java.util.Collections.nCopies(PORTS, Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote("127.0.0.1:9")));
    private final CounterRegistry counters = CounterRegistry.inMemory(ShardedDataplane.counters(settings, 1) + settings.portCount() * 32);
    private final PacketPool pool = new PacketPool(PacketPool.SLOTS_PER_SLAB);
    private final BridgeForwarding forwarding = (BridgeForwarding) LiveSettings.forwarding(settings, 1);
    private final ShardedDataplane dataplane = new ShardedDataplane(settings, pool, 1, new int[] {pool.capacity()}, counters,
        forwarding, () -> new RunRecorder(0, 16), false);
    private final LivePorts ports = new LivePorts(dataplane.shard(0), dataplane, new IngressLinks(rates()));
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
    private final Burst burst = new Burst();

    LivePortsTest() {
        dataplane.clock().startIn(0);
    }

    private LinkRate[] rates() {
        final LinkRate[] rates = new LinkRate[settings.portCount()];
        java.util.Arrays.fill(rates, new LinkRate(settings.portRateBps(0)));
        return rates;
    }

    @Test
    void aFrameIsTakenInOnceWhereverItGoesTheFloodIsThePipelines() {
        arrive(0, frame(HOST_B, HOST_A));
        assertEquals(1, dataplane.shard(0).buffersInUse(), "one buffer: the copies are made when the pipeline floods it");
        arrive(1, frame(HOST_A, HOST_B));
        arrive(1, frame(HOST_A, HOST_B));
        assertEquals(3, dataplane.shard(0).buffersInUse(), "nothing learned or filtered before the pipeline");
        assertEquals(0, count(0, CounterType.FLOODED_PACKETS));
        assertEquals(0, drops(1, "filtered"));
    }

    @Test
    void aFrameThatFoundNoBufferIsCountedAsBufferExhausted() {
        burst.add(2, PacketPool.NO_PACKET);
        ports.admit(burst);
        burst.clear();
        assertEquals(0, dataplane.shard(0).buffersInUse());
        assertEquals(1, drops(2, "bufferExhausted"));
    }

    @Test
    void aFrameForAReservedGroupStaysOnItsLinkWhateverTheForwarding() {
        // 01:80:c2:00:00:0e, LLDP's: a bridge never forwards it.
        arrive(0, frame(0x01_80_c2_00_00_0eL, HOST_A));
        assertEquals(0, dataplane.shard(0).buffersInUse());
        assertEquals(1, drops(0, "reservedGroup"));
    }

    @Test
    void aCaptureSeesEveryFrameItsPortReceivesUntilItsShardLetsItGo() throws Exception {
        final java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("capture");
        final LiveCapture capture = new LiveCapture(0, dir.resolve("port0.pcapng"), settings.portRateBps(0), 0);
        try {
            ports.capture(0, capture);
            arrive(0, frame(HOST_B, HOST_A));
            // Refused by the switch, seen by the capture, as on the wire.
            arrive(0, frame(0x01_80_c2_00_00_0eL, HOST_A));
            ports.capture(0, null);
            arrive(0, frame(HOST_B, HOST_A));
        } finally {
            capture.close();
            java.nio.file.Files.deleteIfExists(dir.resolve("port0.pcapng"));
            java.nio.file.Files.deleteIfExists(dir);
        }
        assertEquals(2, capture.written());
    }

    /** A 64-byte frame received on {@code port}, as a kind puts it in a buffer of the shard's and the shard's burst. */
    private void arrive(final int port, final UnsafeBuffer bytes) {
        final int handle = dataplane.shard(0).allocate();
        pool.buffer(handle).putBytes(pool.offset(handle), bytes, 0, 64);
        pool.length(handle, 64);
        burst.add(port, handle);
        ports.admit(burst);
        burst.clear();
    }

    private UnsafeBuffer frame(final long destination, final long source) {
        frame.setMemory(0, frame.capacity(), (byte) 0);
        for (int i = 0; i < 6; i++) {
            frame.putByte(i, (byte) (destination >>> (40 - 8 * i)));
            frame.putByte(6 + i, (byte) (source >>> (40 - 8 * i)));
        }
        // ARP: what a bridge floods to find a host, and nothing a classifier refuses.
        frame.putByte(12, (byte) 0x08);
        frame.putByte(13, (byte) 0x06);
        return frame;
    }

    private long count(final int port, final CounterType type) {
        return CounterTotals.read(counters.reader()).get(port, type);
    }

    private long drops(final int port, final String reason) {
        return CounterTotals.read(counters.reader()).byName(port, CounterType.DROPS).getOrDefault(reason, 0L);
    }
}
