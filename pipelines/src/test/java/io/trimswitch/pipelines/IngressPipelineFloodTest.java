package io.trimswitch.pipelines;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.trafficmanager.DataQueueScheduler;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.trafficmanager.IdealTrimming;
import io.trimswitch.trafficmanager.PacketFifo;
import io.trimswitch.trafficmanager.PortCounters;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.trafficmanager.TrafficManagerEvents;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A bridged frame through one ingress pipeline and its traffic manager: a flood is copied by the traffic manager to every
 * other port's queue, each buffer accounted for, and counted as the ports show it to a user.
 */
class IngressPipelineFloodTest {
    private static final int PORTS = 4;
    private static final long HOST_A = 0x0200_0000_000AL;
    private static final long HOST_B = 0x0200_0000_000BL;
    private static final long BROADCAST = 0xFFFF_FFFF_FFFFL;

    private final PacketPool pool = PacketPool.withHeadroom(64, PacketPool.MAX_SLOT_BYTES, 16);
    private final CounterRegistry registry = CounterRegistry.inMemory(PORTS * (PortCounters.COUNTERS + 4));
    private final Map<DropReason, Integer> drops = new EnumMap<>(DropReason.class);
    private final BridgeForwarding bridge = new BridgeForwarding(300_000_000_000L, 1024, Map.of(), new int[PORTS], new int[] {0, 1, 2, 3}, 1);
    private final EgressPort[] ports = new EgressPort[PORTS];
    private boolean buffersRunOut;

    private final TrafficManagerEvents events = new TrafficManagerEvents() {
        @Override
        public void drop(final int handle, final DropReason reason, final long now) {
            drops.merge(reason, 1, Integer::sum);
            pool.free(handle);
        }

        @Override
        public void egressPending(final int port, final long now) {
        }

        @Override
        public void recirculationPending(final int pipeline, final long now) {
        }
    };

    IngressPipelineFloodTest() {
        for (int port = 0; port < PORTS; port++) {
            ports[port] = new EgressPort(port, LinkRate.gbps(100), pool, new HandleQueue[] {new PacketFifo(16)}, DataQueueScheduler.single(),
                new PacketFifo(16), 10, new PortCounters(registry, port, "ports"));
        }
    }

    private IngressPipeline pipeline(final boolean replicating) {
        final TrafficManager tm = new TrafficManager(pool, ports, TrimSettings.defaults(), false, new IdealTrimming(1), events);
        return new IngressPipeline(0, pool, TrimSettings.defaults(), bridge, null, new TrimStateTable(PORTS, 0, 0),
            replicating ? tm.replicating(() -> buffersRunOut ? PacketPool.NO_PACKET : pool.allocate(), registry, new int[] {0, 1, 2, 3}, "pipelines-0")
                : tm);
    }

    @Test
    void aFloodReachesEveryOtherPortsQueueOnceAndEveryBufferComesBack() {
        pipeline(true).receive(frame(0, BROADCAST, HOST_A), 0);
        assertEquals(0, ports[0].dataQueue().size(), "not back where it came from");
        for (int port = 1; port < PORTS; port++) {
            assertEquals(1, ports[port].dataQueue().size(), "port " + port);
            final int copy = ports[port].dataQueue().peek();
            assertEquals(64, pool.length(copy));
            assertEquals(HOST_A, io.trimswitch.dataplane.codec.EthernetHeader.source(pool.buffer(copy), pool.offset(copy)));
            assertEquals(0x5A, pool.buffer(copy).getByte(pool.offset(copy) - 1), "the headroom (an offload header) travels with it");
            assertEquals(0, pool.ingressPort(copy));
            assertEquals(port, pool.egressPort(copy));
        }
        assertEquals(PORTS - 1, pool.inUse(), "the frame itself is the last copy");
        drain();
        assertEquals(0, pool.inUse());
        assertEquals(1, total(0, CounterType.RX_PACKETS), "received once, however many copies");
        assertEquals(PORTS - 1, total(0, CounterType.FLOODED_PACKETS));
        assertEquals(1, total(0, CounterType.FLOODED_FRAMES));
    }

    @Test
    void aKnownDestinationGoesToItsPortAloneAndOneBehindTheIngressPortIsFiltered() {
        final IngressPipeline pipeline = pipeline(true);
        pipeline.receive(frame(2, BROADCAST, HOST_B), 0);
        drain();
        pipeline.receive(frame(0, HOST_B, HOST_A), 1);
        assertEquals(1, ports[2].dataQueue().size());
        assertEquals(1, pool.inUse());
        drain();
        pipeline.receive(frame(0, HOST_A, 0x0200_0000_00FFL), 2);
        assertEquals(0, pool.inUse(), "filtered: its buffer is back");
        assertEquals(1, drops.get(DropReason.FILTERED));
        assertEquals(1, totals().byName(0, CounterType.DROPS).get("filtered"), "counted where it came in");
        assertEquals(0, total(0, CounterType.FLOODED_PACKETS));
    }

    @Test
    void aCopyThatFindsNoBufferIsCountedAndTheFrameStillGoesToTheLastPort() {
        buffersRunOut = true;
        pipeline(true).receive(frame(0, BROADCAST, HOST_A), 0);
        assertEquals(0, ports[1].dataQueue().size() + ports[2].dataQueue().size());
        assertEquals(1, ports[3].dataQueue().size());
        assertEquals(2, totals().byName(0, CounterType.DROPS).get("bufferExhausted"));
        assertEquals(PORTS - 1, total(0, CounterType.FLOODED_PACKETS), "rx + the extra copies = tx + drops still adds up");
        drain();
        assertEquals(0, pool.inUse());
    }

    @Test
    void aFloodWithNoOtherPortIsFilteredAndOneWithoutReplicationHasNoRoute() {
        final BridgeForwarding lone = new BridgeForwarding(300_000_000_000L, 1024, Map.of(), new int[PORTS], new int[] {0}, 1);
        final TrafficManager tm = new TrafficManager(pool, ports, TrimSettings.defaults(), false, new IdealTrimming(1), events)
            .replicating(pool::allocate, registry, new int[] {0, 1, 2, 3}, "pipelines-0");
        new IngressPipeline(0, pool, TrimSettings.defaults(), lone, null, new TrimStateTable(PORTS, 0, 0), tm).receive(frame(0, BROADCAST, HOST_A), 0);
        assertEquals(1, drops.get(DropReason.FILTERED));
        assertEquals(0, total(0, CounterType.FLOODED_FRAMES));
        pipeline(false).receive(frame(0, BROADCAST, HOST_A), 0);
        assertEquals(1, drops.get(DropReason.NO_ROUTE));
        assertEquals(0, pool.inUse());
    }

    /** An ARP frame from {@code source} to {@code destination}, in on {@code port}, an offload header's last byte ahead of it. */
    private int frame(final int port, final long destination, final long source) {
        final int handle = pool.allocate();
        final UnsafeBuffer frame = pool.buffer(handle);
        final int at = pool.offset(handle);
        frame.setMemory(at, 64, (byte) 0);
        for (int i = 0; i < 6; i++) {
            frame.putByte(at + i, (byte) (destination >>> (40 - 8 * i)));
            frame.putByte(at + 6 + i, (byte) (source >>> (40 - 8 * i)));
        }
        frame.putByte(at + 12, (byte) 0x08);
        frame.putByte(at + 13, (byte) 0x06);
        frame.putByte(at - 1, (byte) 0x5A);
        pool.length(handle, 64);
        pool.ingressPort(handle, port);
        return handle;
    }

    private void drain() {
        for (final EgressPort port : ports) {
            for (int handle = port.dataQueue().poll(); handle != PacketPool.NO_PACKET; handle = port.dataQueue().poll()) {
                pool.free(handle);
            }
        }
    }

    private CounterTotals totals() {
        return CounterTotals.read(registry.reader());
    }

    private long total(final int port, final CounterType type) {
        return totals().get(port, type);
    }
}
