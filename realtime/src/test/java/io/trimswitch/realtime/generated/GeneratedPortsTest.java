package io.trimswitch.realtime.generated;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.realtime.shard.PortList;
import io.trimswitch.realtime.shard.PublishedTime;
import io.trimswitch.realtime.shard.ShardSleep;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A scenario's generated traffic on one shard, on a host clock the test moves: each packet is written when it is due
 * and not before, a batch at most a turn, and egress may go no further than the next packet still to come.
 */
class GeneratedPortsTest {
    private static final Settings SETTINGS = Settings.DEFAULTS.withRealtime(x -> x.withDilation(1));
    private static final int BATCH = 8;

    private final CachedNanoClock host = new CachedNanoClock();
    private final PacketPool pool = new PacketPool(PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(SETTINGS, pool, 1, new int[] {pool.capacity()},
        CounterRegistry.inMemory(ShardedDataplane.counters(SETTINGS, 1)), AssembledSwitch.defaultForwarding(SETTINGS),
        () -> new RunRecorder(1, 16), false, host);
    private final RunRecorder recorder = new RunRecorder(1, 1024);
    private final Burst burst = new Burst();

    GeneratedPortsTest() {
        dataplane.clock().startIn(0);
    }

    private GeneratedPorts generating(final long... due) {
        final GeneratedPorts ports = new GeneratedPorts(dataplane.shard(0), dataplane, recorder, new Due(due), new HandleRing[1], null, BATCH,
            new PublishedTime(0));
        dataplane.shard(0).ports(new PortList(dataplane.assembly().ports(), ShardSleep.parked()).add(ports).ingress(ports));
        return ports;
    }

    /** One turn's receive: the ports fill the shard's burst, and take it as the shard's way in. */
    private int receive(final GeneratedPorts ports) {
        final int work = ports.receive(burst);
        ports.admit(burst);
        burst.clear();
        return work;
    }

    @Test
    void aPacketIsWrittenWhenItIsDueAndNotBefore() {
        final GeneratedPorts ports = generating(2_000, 5_000);
        host.advance(1);
        assertEquals(0, receive(ports), "1 ns before the first is due");
        host.advance(1);
        assertEquals(1, receive(ports));
        assertEquals(1, recorder.sentTotal());
        host.advance(3);
        assertEquals(1, receive(ports));
        assertEquals(2, recorder.sentTotal());
    }

    @Test
    void aBatchAtMostIsWrittenATurnSoThatTheShardMetersInBetween() {
        final long[] due = new long[20];
        final GeneratedPorts ports = generating(due);
        assertEquals(BATCH, receive(ports));
        assertEquals(BATCH, receive(ports));
        assertEquals(20 - 2 * BATCH, receive(ports));
    }

    @Test
    void egressMayGoNoFurtherThanJustBeforeThePacketStillToCome() {
        final GeneratedPorts ports = generating(2_000, 7_000);
        host.advance(3);
        receive(ports);
        assertEquals(6_999, ports.horizon(dataplane.clock().nowPicos()));
        host.advance(10);
        receive(ports);
        assertEquals(Long.MAX_VALUE, ports.horizon(dataplane.clock().nowPicos()), "nothing more to come");
    }

    @Test
    void aSentPacketIsRecordedForItsFlowAndItsBufferGivenBack() {
        final GeneratedPorts ports = generating();
        final int handle = dataplane.shard(0).allocate();
        pool.flow(handle, 0);
        pool.trimKind(handle, TrimKind.NONE);
        ports.send(1, handle, 9_000);
        assertEquals(1, recorder.wholeOf(0));
        assertEquals(1, ports.departed());
        assertEquals(0, dataplane.shard(0).buffersInUse());
    }

    /** One flow, from port 0 to port 1: 64-byte packets due at the given switch times. */
    private static final class Due implements TrafficSource {
        private final long[] due;
        private int next;

        Due(final long... due) {
            this.due = due;
        }

        @Override
        public long nextTime() {
            return next < due.length ? due[next] : Long.MAX_VALUE;
        }

        @Override
        public int nextFlow() {
            return 0;
        }

        @Override
        public int nextLength() {
            return 64;
        }

        @Override
        public void emit(final PacketPool pool, final int handle) {
            if (handle != PacketPool.NO_PACKET) {
                pool.length(handle, 64);
                pool.ingressPort(handle, 0);
                pool.egressPort(handle, -1);
                pool.flow(handle, 0);
            }
            next++;
        }

        @Override
        public void reset() {
            next = 0;
        }

        @Override
        public int flows() {
            return 1;
        }

        @Override
        public int flowSource(final int flow) {
            return 0;
        }

        @Override
        public int flowDestination(final int flow) {
            return 1;
        }

        @Override
        public long sendingPicos(final int flow) {
            return 0;
        }

        @Override
        public long packets() {
            return due.length;
        }

        @Override
        public int longestFrame() {
            return 64;
        }

        @Override
        public String description() {
            return "due";
        }
    }
}
