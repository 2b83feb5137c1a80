package io.trimswitch.realtime.shard;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecirculationStageTest {
    private static final int BYTES = 1000;
    private static final int EGRESS = 3;

    private final Settings settings = Settings.DEFAULTS.withMechanism(Mechanism.DOD);
    private final PacketPool pool = new PacketPool(16);
    private final AssembledSwitch assembly = Assemblies.of(settings, pool);
    private final RecirculationPort port = assembly.recirculation(0);
    private final RecirculationStage stage = new RecirculationStage(port);
    private final EgressPort egress = assembly.port(EGRESS);
    private final long packetTime = new LinkRate(Math.round(settings.recirculation().rateGbps() * 1e9)).serialisation(BYTES);
    private final long latency = Picos.fromNanos(settings.recirculation().latencyNs());

    /** A deflected packet, already cut to its header so the loop's trim leaves it be, queued at {@code at}. */
    private int deflect(final long at) {
        final int handle = pool.allocate();
        pool.length(handle, BYTES);
        pool.egressPort(handle, EGRESS);
        pool.trimKind(handle, TrimKind.DOD);
        pool.queuedPicos(handle, at);
        assertTrue(port.queue().offer(handle));
        return handle;
    }

    @Test
    void aDeflectedPacketIsBackInItsPortsHeaderQueueARecirculationLatencyAfterItLeftTheRecirculationPort() {
        final int handle = deflect(0);
        final long back = packetTime + latency;
        stage.advanceTo(back - 1);
        assertTrue(egress.headerQueue().isEmpty(), "still looping");
        assertEquals(1, stage.advanceTo(back));
        assertEquals(handle, egress.headerQueue().peek());
        assertEquals(back, pool.queuedPicos(handle), "queued when its loop ended");
    }

    @Test
    void theRecirculationPortSendsItsQueueBackToBackAtItsRateHoweverLateTheStageLooks() {
        final int first = deflect(0);
        final int second = deflect(0);
        stage.advanceTo(100 * packetTime + latency);
        assertEquals(packetTime + latency, pool.queuedPicos(first));
        assertEquals(2 * packetTime + latency, pool.queuedPicos(second));
        assertTrue(stage.isEmpty());
    }

    @Test
    void aPacketDeflectedWhileThePortWasIdleStartsWhenItWasDeflectedNotWhenTheStageLooks() {
        final int handle = deflect(5 * packetTime);
        stage.advanceTo(100 * packetTime + latency);
        assertEquals(6 * packetTime + latency, pool.queuedPicos(handle));
    }

    @Test
    void nothingStartsBeforeTheTimeTheStageHasReached() {
        deflect(5 * packetTime);
        assertEquals(0, stage.advanceTo(5 * packetTime - 1));
        assertTrue(port.isIdle(), "the packet was deflected after the stage's time");
    }
}
