package io.trimswitch.recirc;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.pipelines.IngressPipeline;
import io.trimswitch.pipelines.PortSubnetForwarding;
import io.trimswitch.pipelines.TrimState;
import io.trimswitch.pipelines.TrimStateTable;
import io.trimswitch.trafficmanager.DeflectOnDrop;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.trafficmanager.TrafficManagerEvents;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecirculationTest {
    private static final long US = 1_000_000;
    private static final long LATENCY = US;

    private final PacketPool pool = new PacketPool(1024);
    private final TrimSettings trim = TrimSettings.defaults();
    private final List<Long> notifyTimes = new ArrayList<>();
    private final DeflectOnDrop dod = new DeflectOnDrop(4, 4, 100);
    private final IngressPipeline[] pipelines = new IngressPipeline[4];
    private final TrafficManager tm;

    RecirculationTest() {
        final EgressPort[] ports = new EgressPort[16];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = new EgressPort(port, LinkRate.gbps(100), pool, 16, 1024, 10);
        }
        tm = new TrafficManager(pool, ports, trim, false, dod, new TrafficManagerEvents() {
            @Override
            public void drop(final int handle, final DropReason reason, final long now) {
                pool.free(handle);
            }

            @Override
            public void egressPending(final int port, final long now) {
            }

            @Override
            public void recirculationPending(final int pipeline, final long now) {
            }
        });
        for (int pipeline = 0; pipeline < 4; pipeline++) {
            pipelines[pipeline] = new IngressPipeline(pipeline, pool, trim, new PortSubnetForwarding(16), null,
                new TrimStateTable(16, 6 * US, 24 * US), tm);
        }
    }

    private int deflected(final int from, final int to) {
        final int handle = pool.allocate();
        WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), 1500, from, to, from, 0, 10, 666);
        pool.length(handle, 1500);
        pool.ingressPort(handle, from);
        pool.egressPort(handle, to);
        pool.classification(handle, PacketClass.classify(pool.buffer(handle), pool.offset(handle), 1500, trim));
        dod.recirculationQueue(from / 4).offer(handle);
        return handle;
    }

    private DelayedNotifications notifications;

    private CongestionSignals signals(final CongestionSignals.Trigger trigger, final int backlog, final CongestionSignals.Scope scope) {
        notifications = new DelayedNotifications(pipelines, notifyTimes::add);
        return new CongestionSignals(trigger, backlog, scope, LATENCY, pipelines.length, notifications);
    }

    @Test
    void aDeflectedPacketIsSerialisedWholeAndComesBackTrimmedIntoItsHeaderQueueAfterTheLatency() {
        final RecirculationPort port = new RecirculationPort(1, dod.recirculationQueue(1), LinkRate.gbps(100), LATENCY, tm, null);
        final int handle = deflected(5, 2);

        final long done = port.startTransmission(0);
        assertEquals(120_000, done, "1500 B at 100 Gb/s");
        final long back = port.finishTransmission(done);
        assertEquals(120_000 + LATENCY, back);
        assertEquals(0, port.returnDue(back - 1));
        assertEquals(1, port.returnDue(back));

        assertEquals(handle, tm.port(2).headerQueue().peek());
        assertEquals(64, pool.length(handle));
        assertEquals(TrimKind.DOD, pool.trimKind(handle));
        assertEquals(1, tm.port(2).counters().trimPackets(TrimKind.DOD));
    }

    @Test
    void everyDeflectedPacketRaisesASignalThatMakesAllPipelinesPessimisticAfterTheLatency() {
        final CongestionSignals signals = signals(CongestionSignals.Trigger.EVERY, 1, CongestionSignals.Scope.ALL);
        final RecirculationPort port = new RecirculationPort(1, dod.recirculationQueue(1), LinkRate.gbps(100), LATENCY, tm, signals);
        deflected(5, 2);

        port.startTransmission(10 * US);
        assertEquals(List.of(11 * US), notifyTimes);
        assertEquals(0, notifications.deliverDue(11 * US - 1));
        for (final IngressPipeline pipeline : pipelines) {
            assertEquals(TrimState.OPTIMISTIC, pipeline.trimStates().state(2, 11 * US - 1));
        }
        assertEquals(pipelines.length, notifications.deliverDue(11 * US), "one NOTIFY for each pipeline");
        for (final IngressPipeline pipeline : pipelines) {
            assertEquals(TrimState.PESSIMISTIC, pipeline.trimStates().state(2, 11 * US));
            assertEquals(TrimState.OPTIMISTIC, pipeline.trimStates().state(3, 11 * US));
        }
        assertEquals(1, signals.raised(1));
    }

    @Test
    void withOriginScopeOnlyThePipelineTheTrafficCameFromIsNotified() {
        final CongestionSignals signals = signals(CongestionSignals.Trigger.EVERY, 1, CongestionSignals.Scope.ORIGIN);
        final RecirculationPort port = new RecirculationPort(3, dod.recirculationQueue(3), LinkRate.gbps(100), LATENCY, tm, signals);
        deflected(13, 0);
        port.startTransmission(0);
        notifications.deliverDue(LATENCY);
        for (int pipeline = 0; pipeline < 4; pipeline++) {
            assertEquals(pipeline == 3 ? TrimState.PESSIMISTIC : TrimState.OPTIMISTIC, pipelines[pipeline].trimStates().state(0, LATENCY));
        }
    }

    @Test
    void withTheBacklogTriggerOnlyPacketsWithEnoughQueuedBehindThemRaiseASignal() {
        final CongestionSignals signals = signals(CongestionSignals.Trigger.BACKLOG, 2, CongestionSignals.Scope.ALL);
        final RecirculationPort port = new RecirculationPort(0, dod.recirculationQueue(0), LinkRate.gbps(100), LATENCY, tm, signals);
        for (int i = 0; i < 4; i++) {
            deflected(1, 2);
        }
        long now = 0;
        for (int i = 0; i < 4; i++) {
            now = port.startTransmission(now);
            port.finishTransmission(now);
        }
        // Behind the four packets as they leave: 3, 2, 1, 0 → only the first two have a backlog of 2.
        assertEquals(2, signals.raised(0));
        assertEquals(2, notifyTimes.size());
    }

    @Test
    void aPacketLeavingAnEmptyQueueRaisesNothingWithBacklogOneButDoesWithEvery() {
        final CongestionSignals backlog = signals(CongestionSignals.Trigger.BACKLOG, 1, CongestionSignals.Scope.ALL);
        final RecirculationPort port = new RecirculationPort(0, dod.recirculationQueue(0), LinkRate.gbps(100), LATENCY, tm, backlog);
        deflected(1, 2);
        port.finishTransmission(port.startTransmission(0));
        assertEquals(0, backlog.raised(0));

        final CongestionSignals every = signals(CongestionSignals.Trigger.EVERY, 1, CongestionSignals.Scope.ALL);
        final RecirculationPort second = new RecirculationPort(0, dod.recirculationQueue(0), LinkRate.gbps(100), LATENCY, tm, every);
        deflected(1, 2);
        second.startTransmission(0);
        assertEquals(1, every.raised(0));
    }

    @Test
    void packetsComeBackInTheOrderTheyLeft() {
        final RecirculationPort port = new RecirculationPort(0, dod.recirculationQueue(0), LinkRate.gbps(100), LATENCY, tm, null);
        final int first = deflected(1, 2);
        final int second = deflected(2, 2);
        long now = port.startTransmission(0);
        port.finishTransmission(now);
        now = port.startTransmission(now);
        port.finishTransmission(now);
        assertEquals(2, port.returnDue(now + LATENCY));
        assertEquals(first, tm.port(2).headerQueue().poll());
        assertEquals(second, tm.port(2).headerQueue().poll());
        assertTrue(port.isIdle());
    }
}
