package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.trafficmanager.EgressPort;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EgressStageTest {
    private static final LinkRate RATE = LinkRate.gbps(100);
    private static final int BYTES = 1000;
    private static final long PACKET_TIME = RATE.serialisation(BYTES);

    private final PacketPool pool = new PacketPool(16);
    private final EgressPort port0 = new EgressPort(0, RATE, pool, 16, 16, 10);
    private final EgressPort port1 = new EgressPort(1, RATE, pool, 16, 16, 10);
    /** What left, as "port@time". */
    private final List<String> departed = new ArrayList<>();
    private final EgressStage stage = new EgressStage(new EgressPort[] {port0, port1}, (port, handle, time) -> departed.add(port + "@" + time));

    private void queue(final EgressPort port, final long at) {
        final int handle = pool.allocate();
        pool.length(handle, BYTES);
        pool.queuedPicos(handle, at);
        assertTrue(port.dataQueue().offer(handle));
    }

    @Test
    void aBusyPortStartsItsNextPacketTheInstantTheLastOneFinishedHoweverLateTheStageLooks() {
        queue(port0, 0);
        queue(port0, 0);
        queue(port0, 0);
        stage.advanceTo(100 * PACKET_TIME);
        assertEquals(List.of("0@" + PACKET_TIME, "0@" + 2 * PACKET_TIME, "0@" + 3 * PACKET_TIME), departed);
        assertEquals(3 * PACKET_TIME, stage.lastPacketPicos());
    }

    @Test
    void aPacketLeavesOnlyOnceItsLastBitHasLeft() {
        queue(port0, 0);
        stage.advanceTo(PACKET_TIME - 1);
        assertTrue(departed.isEmpty(), "still on the wire");
        stage.advanceTo(PACKET_TIME);
        assertEquals(List.of("0@" + PACKET_TIME), departed);
    }

    @Test
    void aPacketQueuedWhileThePortWasIdleStartsWhenItWasQueuedNotWhenTheStageLooks() {
        queue(port0, 5 * PACKET_TIME);
        stage.advanceTo(20 * PACKET_TIME);
        assertEquals(List.of("0@" + 6 * PACKET_TIME), departed);
    }

    @Test
    void aPacketQueuedAfterTheTimeTheStageHasReachedWaitsForIt() {
        queue(port0, 5 * PACKET_TIME);
        stage.advanceTo(5 * PACKET_TIME - 1);
        stage.advanceTo(6 * PACKET_TIME - 1);
        assertTrue(departed.isEmpty(), "it started at 5 packet times, not before");
        stage.advanceTo(6 * PACKET_TIME);
        assertEquals(List.of("0@" + 6 * PACKET_TIME), departed);
    }

    @Test
    void eachPortOfTheGroupKeepsItsOwnPace() {
        queue(port0, 0);
        queue(port1, PACKET_TIME / 2);
        stage.advanceTo(10 * PACKET_TIME);
        assertEquals(List.of("0@" + PACKET_TIME, "1@" + (PACKET_TIME / 2 + PACKET_TIME)), departed);
    }

    @Test
    void oncePortsAreWokenTheStageServesAWokenPortAndLeavesTheOthersAlone() {
        stage.lookOnlyAtWokenPorts();
        stage.advanceTo(0);
        queue(port0, 0);
        queue(port1, 0);
        stage.wakePort(1);
        stage.advanceTo(10 * PACKET_TIME);
        assertEquals(List.of("1@" + PACKET_TIME), departed, "port 0 was queued for without a wake-up");
        stage.wakePort(0);
        stage.advanceTo(10 * PACKET_TIME);
        assertEquals(List.of("1@" + PACKET_TIME, "0@" + PACKET_TIME), departed);
    }
}
